// Process entry: node dist/reviews/main.js (environment: see ../env.ts).
import { runSubgraphProcess } from '../process.js';
import { reviewsSubgraph } from './subgraph.js';

await runSubgraphProcess(reviewsSubgraph);

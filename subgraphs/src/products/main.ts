// Process entry: node dist/products/main.js (environment: see ../env.ts).
import { runSubgraphProcess } from '../process.js';
import { productsSubgraph } from './subgraph.js';

await runSubgraphProcess(productsSubgraph);

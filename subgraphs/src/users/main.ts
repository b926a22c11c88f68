// Process entry: node dist/users/main.js (environment: see ../env.ts).
import { runSubgraphProcess } from '../process.js';
import { usersSubgraph } from './subgraph.js';

await runSubgraphProcess(usersSubgraph);

import { defineIntegrationTestSuite } from '@apollo/server-integration-testsuite';
import { createServerFactory } from './create-server.js';
import { defineKnownDifferenceChecks, skipKnownDifferences } from './known-differences.js';

const createServer = createServerFactory('nest-fastify');

skipKnownDifferences('nest-fastify');
defineIntegrationTestSuite(createServer, { noIncrementalDelivery: true });
defineKnownDifferenceChecks(createServer);

import { defineIntegrationTestSuite } from '@apollo/server-integration-testsuite';
import { createServerFactory } from './create-server.js';
import { defineKnownDifferenceChecks, skipKnownDifferences } from './known-differences.js';

const createServer = createServerFactory('nest-express');

skipKnownDifferences('nest-express');
defineIntegrationTestSuite(createServer, { noIncrementalDelivery: true });
defineKnownDifferenceChecks(createServer);

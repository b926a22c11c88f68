// pnpm's install hook. valibot declares TypeScript as an optional peer (for its types); pnpm
// would satisfy it with the root's TypeScript and so put TypeScript into the production install
// of the gateway, and the runtime image (bench/test/compose.test.ts checks the image holds no dev
// tool). The gateway runs compiled JavaScript, so the peer is dropped.
module.exports = {
  hooks: {
    readPackage(pkg) {
      if (pkg.name === 'valibot') {
        delete pkg.peerDependencies?.typescript;
        delete pkg.peerDependenciesMeta?.typescript;
      }
      return pkg;
    },
  },
};

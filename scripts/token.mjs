// `pnpm token [sub] [claim=value ...]`: a token for a signed-in request to the gateway `pnpm dev`
// runs with the jwt plugin (`GATEWAY_PLUGINS=jwt pnpm dev`). Signed with the development key
// (dev-tasks.mjs), never with a JWT_SECRET from the environment: a real key must not be one
// command away from minting tokens. Refuses outside development.
//   curl localhost:4000/graphql -H "authorization: Bearer $(pnpm --silent token user-5)" ...
import { SignJWT } from 'jose';
import { DEV_JWT_SECRET } from './dev-tasks.mjs';

const env = process.env.GATEWAY_ENV ?? 'development';
if (env !== 'development' || process.env.NODE_ENV === 'production') {
  process.stderr.write(
    `pnpm token signs with the development key, which only \`pnpm dev\` trusts: refused with ` +
      `GATEWAY_ENV=${env}${process.env.NODE_ENV === 'production' ? ' and NODE_ENV=production' : ''}. ` +
      'Get tokens from your identity provider outside development.\n',
  );
  process.exit(1);
}

const [sub = 'user-1', ...rest] = process.argv.slice(2);
const claims = { sub };
for (const pair of rest) {
  const at = pair.indexOf('=');
  if (at <= 0) {
    process.stderr.write(`expected claim=value, got ${JSON.stringify(pair)}\n`);
    process.exit(2);
  }
  claims[pair.slice(0, at)] = pair.slice(at + 1);
}
const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt().setExpirationTime('1h');
// The gateway checks these when they are set: the token carries what `pnpm dev` was given.
if (process.env.JWT_ISSUER) jwt.setIssuer(process.env.JWT_ISSUER);
if (process.env.JWT_AUDIENCE) jwt.setAudience(process.env.JWT_AUDIENCE.split(',').map((item) => item.trim()));
process.stdout.write(`${await jwt.sign(new TextEncoder().encode(DEV_JWT_SECRET))}\n`);

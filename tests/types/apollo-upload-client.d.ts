// apollo-upload-client ships JSDoc-typed JavaScript and no declarations: the part the tests use.
declare module 'apollo-upload-client/UploadHttpLink.mjs' {
  import { ApolloLink } from '@apollo/client/link';
  export default class UploadHttpLink extends ApolloLink {
    constructor(options?: { uri?: string; headers?: Record<string, string>; fetch?: typeof fetch });
  }
}

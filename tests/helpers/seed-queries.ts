// The seed queries and their reference answers live with the benchmark, which checks every
// target against them before timing; the contract tests use the very same ones.
export {
  COMPLEX_QUERY,
  expectedComplex,
  expectedUserWithProducts,
  GET_USER_WITH_PRODUCTS,
} from '../../bench/src/reference-answers.js';

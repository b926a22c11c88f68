/** A Hive plan with a part the lean executor cannot run exactly: the operation is planned by Apollo's planner instead. */
export class Untranslatable extends Error {
  override readonly name = 'Untranslatable';
}

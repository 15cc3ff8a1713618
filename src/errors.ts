/**
 * The one error hierarchy of the kit (issue 23; undici's `errors.js`): every error the kit
 * raises is a {@link Pgv2kitError}, with a stable `code` for programs and the exit class the
 * CLI maps it to, in one place (`src/cli/main.ts`). A cause, when there is one, is kept as
 * `cause`. Errors of Node and of the platform (a `TypeError` of a bad argument, a file
 * system error) are not wrapped.
 *
 * | class                    | code                          | exit        |
 * | ------------------------ | ----------------------------- | ----------- |
 * | UsageError               | PGV2_CLI_USAGE                | usage (2)   |
 * | VectorSetError           | PGV2_VECTORS_INVALID          | usage (2)   |
 * | VectorSchemaError        | PGV2_VECTOR_SCHEMA            | usage (2)   |
 * | VectorInputError         | PGV2_VECTORS_REFUSED          | usage (2)   |
 * | VectorTargetError        | PGV2_VECTOR_TARGET            | usage (2)   |
 * | SelectionError           | PGV2_SELECTION                | usage (2)   |
 * | ExpectFailuresError      | PGV2_EXPECT_FAILURES          | usage (2)   |
 * | ModuleSubjectError       | PGV2_MODULE_SUBJECT           | usage (2)   |
 * | TargetExistsError        | PGV2_GENERATE_EXISTS          | usage (2)   |
 * | CompareInputError        | PGV2_COMPARE_INPUT            | usage (2)   |
 * | MergeError               | PGV2_MERGE                    | usage (2)   |
 * | ReportWriteError         | PGV2_REPORT_WRITE             | usage (2)   |
 * | ReportFolderLockError    | PGV2_REPORT_FOLDER_LOCKED     | usage (2)   |
 * | HarError                 | PGV2_HAR_INVALID              | usage (2)   |
 * | (reference input error)  | PGV2_OPERATION_INPUT          | usage (2)   |
 * | TesteeStartError         | PGV2_TESTEE_START             | failure (3) |
 * | TargetUnreachableError   | PGV2_TARGET_UNREACHABLE       | failure (3) |
 * | SampleMerchantError      | PGV2_SAMPLE_MERCHANT          | failure (3) |
 * | (proxy could not listen) | PGV2_PROXY_START              | failure (3) |
 * | GenerateCheckError       | PGV2_GENERATE_CHECK           | failure (3) |
 * | MultipartError           | PGV2_MULTIPART_MALFORMED      | failure (3) |
 * | ClientError              | PGV2_CLIENT_* (one per cause) | failure (3) |
 *
 * Codes are never renamed: a program may compare them.
 * @module
 */

/**
 * What an error means for the CLI's exit code: `usage` a mistake in how the kit was invoked or
 * configured, or an input it refuses (exit 2); `failure` the kit or the implementation under
 * test failed (exit 3). The names are those of `EXIT` in `src/cli/exit-codes.ts`.
 */
export type ErrorExit = 'usage' | 'failure';

/**
 * The base of every error the kit raises: a stable `code` and an exit class. A subclass sets
 * `name`, `code` and `exit` as fields; a `cause` is passed as in `Error`.
 * @example catch (e) { if (e instanceof Pgv2kitError) console.error(`${e.code}: ${e.message}`) }
 */
export class Pgv2kitError extends Error {
  override readonly name: string = 'Pgv2kitError';
  /** Stable code for programs (`PGV2_…`), never renamed. */
  readonly code: string = 'PGV2_ERROR';
  /** The exit class the CLI maps this error to: `usage` (2) or `failure` (3). */
  readonly exit: ErrorExit = 'failure';

  /**
   * @param message - what is wrong, one line where it can be
   * @param options - the underlying error, as `cause`
   */
  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
  }
}

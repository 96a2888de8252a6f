/// A count of what a piece of work looked at (models compared, list entries read), set for one task by a test:
/// how tests see what an edit or a save costs, without timing it.
package final class ExaminedCount: @unchecked Sendable {
    // `@unchecked`: one task increments it, and reads it once that task is done.
    package var count = 0
    package init() {}
}

/// What the SQL of the two drivers differs in, for the statements written once
/// (``SQLStatement``). Both speak `ON CONFLICT … DO UPDATE`, `RETURNING` and
/// `IS DISTINCT FROM`; a statement that needs more than this names its dialect's piece here.
package struct SQLDialect: Sendable {
    /// The placeholder of the `index`th bound value (from 1).
    package let placeholder: @Sendable (Int) -> String
    /// How a boolean constant is written: a boolean column is an `INTEGER` in SQLite.
    package let trueLiteral: String
    package let falseLiteral: String
    /// The function that answers the largest of its arguments (`MAX` in SQLite).
    package let greatest: String

    /// SQLite's `?`, and 1 and 0.
    package static let sqlite = SQLDialect(placeholder: { _ in "?" }, trueLiteral: "1", falseLiteral: "0", greatest: "MAX")
    /// PostgreSQL's `$1`, `$2`…, and `TRUE` and `FALSE`.
    package static let postgres = SQLDialect(placeholder: { "$\($0)" }, trueLiteral: "TRUE", falseLiteral: "FALSE", greatest: "GREATEST")

    /// The functions whose names differ.
    package enum Function: Sendable {
        case greatest
    }
}

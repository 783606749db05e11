/// How long the outboxes (mail, Apple's revocations) wait before trying a failed delivery again:
/// the first wait, doubled after each further failure, up to a longest wait.
enum RetrySchedule {
    /// The wait after the `attempts`th failed try (1 for the first).
    static func wait(after attempts: Int, first: Duration, longest: Duration) -> Duration {
        min(first * (1 << min(max(attempts - 1, 0), 20)), longest)
    }
}

import ArgumentParser

/// `stratus-bench`: Stratus benchmarks. Each prints its figures, their ratios to a baseline
/// measured in the same run, and one `figure NAME VALUE` line per figure.
@main
struct StratusBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stratus-bench",
        abstract: "Measure Stratus against baselines taken in the same run.",
        subcommands: [ServerBenchmark.self, KeysBenchmark.self, EncryptionBenchmark.self, HistoryBenchmark.self, PublicFeedBenchmark.self, WebhookBenchmark.self, QueryBenchmark.self, AssetBenchmark.self, SyncBenchmark.self, PushBenchmark.self, StoreBenchmark.self,
                      HostileBenchmark.self, RequestCostBenchmark.self, IdentityTimingBenchmark.self, ChildServer.self])
}

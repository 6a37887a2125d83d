// The libFuzzer command lines of the fuzz workflows, as data: what flags a campaign, a merge, a
// replay and a crash minimization pass. Pure, so tests pin them without running a fuzzer.

/// libFuzzer arguments over one workspace.
struct LibFuzzerArguments: Sendable {
    let workspace: FuzzWorkspace

    /// Flags every run of `target` shares: the dictionary, artifacts into the target's crashes/,
    /// the final stats (the end report reads them), and the input, memory and time bounds.
    func common(_ target: FuzzTarget) -> [String] {
        ["-dict=\(workspace.dictionary)", "-artifact_prefix=\(workspace.crashes(target))/", "-print_final_stats=1",
         "-max_len=4096", "-rss_limit_mb=2048", "-timeout=10"]
    }

    /// A campaign of `seconds`: with more than one job, that many workers; then FUZZ_ARGS; then the
    /// corpus folders. New entries go to the first folder (the campaign's corpus); the seeds and
    /// regressions are read-only inputs.
    func campaign(_ target: FuzzTarget, seconds: Int, settings: CampaignSettings) -> [String] {
        var arguments = common(target) + ["-max_total_time=\(seconds)"]
        if settings.jobs > 1 { arguments += ["-jobs=\(settings.jobs)", "-workers=\(settings.jobs)"] }
        return arguments + settings.extraArguments + [workspace.corpus(target), workspace.seeds, workspace.regressions]
    }

    /// Merges the seeds and the campaign's corpus into `into`, keeping what adds coverage.
    func merge(_ target: FuzzTarget, into: String) -> [String] {
        ["-merge=1"] + common(target) + [into, workspace.seeds, workspace.corpus(target)]
    }

    /// Runs each of `files` once.
    static func replay(_ files: [String]) -> [String] { ["-runs=1"] + files }

    /// Shrinks a crashing `reproducer` into `minimized`, at most 20,000 attempts.
    static func minimizeCrash(_ reproducer: String, into minimized: String) -> [String] {
        ["-minimize_crash=1", "-runs=20000", "-exact_artifact_path=\(minimized)", reproducer]
    }

    /// The environment of a triage replay: a symbolized stack and the leak check.
    static func symbolizingEnvironment(symbolizer: String?) -> [String: String] {
        ["ASAN_OPTIONS": "symbolize=1:detect_leaks=1", "ASAN_SYMBOLIZER_PATH": symbolizer ?? ""]
    }

    /// The environment of a corpus-writer run: it exits from LLVMFuzzerInitialize, before any input,
    /// so no leak check.
    static let writerEnvironment = ["ASAN_OPTIONS": "detect_leaks=0"]
}

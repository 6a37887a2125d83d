// Which counts of a long step get a progress line, for every step that reports one: the proof
// runner's checks, prove's oracle step and `wireproof oracle-check`.

/// About `times` lines over a step of `total` counts: every `total / times`-th count (every count
/// when there are fewer than `times`), and always the last, so a finished step always says so.
public enum ProgressCadence {
    public static func shows(done: Int, of total: Int, times: Int) -> Bool {
        done % max(1, total / times) == 0 || done == total
    }
}

//! The command line: every sub-command, option and help text (clap), and
//! nothing else. `main` turns a parsed [`Cli`] into calls on the library.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// Examples shown by `--help` and `run --help`.
pub const EXAMPLES: &str = "\
Examples:
  krunch run experiments/shoota_vs_kannon.toml
      run one spec; writes reports/shoota_vs_kannon/{data.csv,summary.md,*.svg,*.png}
  krunch run experiments/*.toml --threads 2
      run every bundled spec on two threads (results are identical for any count)
  krunch run my_spec.toml --trials 100000 --out /tmp/reports
      a quick look with fewer trials, written elsewhere
  krunch list
      rule sets, scenarios, weapon presets, metrics and rule variants
  krunch compare experiments/overwatch_rule_change.toml --variant overwatch=original
      before/after of a rule change with significance: Markdown, MediaWiki, CSV, chart
  krunch check experiments/
      re-run pinned expectations; exit 1 with a diff when one moved
  krunch prob \"4d6k3\" \"2d6<=7\" \"count(10d6>=5)\"
      exact distributions of dice expressions (see `krunch prob --help`)
  krunch roll \"sf+sf\" -n 10 --seed 1
      roll an expression, reproducibly

Exit codes: 0 success, 1 `check` found a moved expectation, 2 bad input
(the message names file, line and field), 3 an input/output failure while
writing (disk full, no permission: the previous output is left whole).";

/// Examples shown by `merge --help`.
const MERGE_EXAMPLES: &str = "\
Examples:
  krunch run experiments/shoota_vs_kannon.toml --shard 1/3 --out shards
  krunch run experiments/shoota_vs_kannon.toml --shard 2/3 --out shards
  krunch run experiments/shoota_vs_kannon.toml --shard 3/3 --out shards
  krunch merge experiments/shoota_vs_kannon.toml shards/shoota_vs_kannon.shard-*.json
      the same report as `krunch run experiments/shoota_vs_kannon.toml`, byte for byte

Missing, duplicate or foreign shards (another spec, seed, trial count or
krunch version) are refused by name (exit 2).";

/// Examples shown by `run --help`.
const RUN_EXAMPLES: &str = "\
Examples:
  krunch run experiments/shoota_vs_kannon.toml
      writes reports/shoota_vs_kannon/: report.html (open it in a browser),
      summary.md, data.csv, results.json and the charts (.svg, .png)
  krunch run experiments/*.toml --threads 2
      every bundled spec on two threads (results identical for any count)
  krunch run my_spec.toml --trials 20000 --out /tmp/reports
      a quick look with fewer trials, written elsewhere
  krunch new gce shooting > my_spec.toml && krunch run my_spec.toml
      start a spec of your own from the registry
  krunch run big.toml --shard 2/8 --out shards
      one of eight machines' shares; `krunch merge` combines them

A spec's fields are explained in README.md; `krunch list SYSTEM SCENARIO`
lists a scenario's parameters and metrics. Exit code 2 on bad input (the
message names the file, line and field).";

/// Examples shown by `compare --help`.
const COMPARE_EXAMPLES: &str = "\
Examples:
  krunch compare experiments/overwatch_rule_change.toml --variant overwatch=original
      the rule change measured on the spec's profiles and sweep: a summary on
      stdout; report.html, compare.md, compare.wiki, compare.csv and a chart in
      reports/overwatch_rule_change-compare/
  krunch compare experiments/shoota_vs_kannon.toml --variant strength=4 --print wiki
      a stat changed on every profile, as a MediaWiki table to paste
  krunch compare before.toml after.toml --print markdown
      two specs with the same sweep and profiles
  krunch compare experiments/shoota_vs_kannon.toml --variant strength=4 \\
      --changed-only --metric p_out_of_action --print wiki
      only the rows of P(out of action) that change

Both sides roll the same dice trial by trial (common random numbers), so
small changes show with fewer trials. A change is significant when the exact
values differ, or (Monte Carlo) a two-sided paired test of the trial-by-trial
differences (McNemar's for a probability, a z test for a mean) gives p below
--alpha, each result on its own. Every output names what differs between the
sides, the test, seed, trials and version, and says so when nothing changes.";

/// Examples shown by `check --help`.
const CHECK_EXAMPLES: &str = "\
Examples:
  krunch check experiments/
      every spec's [[expect]] and baselines/<name>.toml; exit 1 with a diff when
      a value moved (CI runs this)
  krunch check experiments/overwatch_rule_change.toml --update
      pin today's results as the spec's baseline (after a deliberate change)
  krunch check experiments/ --junit target/krunch-check.xml --verbose
      every expectation printed, and a JUnit report for the CI server

Exact values are compared to 1e-9; Monte Carlo ones by a test at a
family-wise false-alarm rate of --alpha over all checks. A spec with
nothing pinned is refused (exit 2) unless --allow-unpinned.";

/// `krunch` and its options.
#[derive(Parser)]
#[command(
    name = "krunch",
    version,
    about = "How likely is it? Exact and Monte Carlo odds for tabletop wargame rules.",
    after_help = EXAMPLES
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The sub-commands.
#[derive(Subcommand)]
pub enum Command {
    /// Run experiment specs (TOML) and write a report for each: report.html,
    /// summary.md, data.csv, results.json and charts.
    #[command(after_help = RUN_EXAMPLES, allow_negative_numbers = true)]
    Run(RunArgs),
    /// List rule sets and scenarios; `list SYSTEM SCENARIO` shows a
    /// scenario's parameters (type, default or "required"), metrics,
    /// presets with their stats, and rule variants.
    #[command(
        after_help = "Examples:\n  krunch list\n  krunch list gce\n  krunch list gce shooting\n  krunch list gce shooting --format json"
    )]
    List(ListArgs),
    /// Before/after of a rule change: one spec with --variant NAME=VALUE, or
    /// two specs with the same sweep. Paired trials on common random numbers.
    #[command(after_help = COMPARE_EXAMPLES, allow_negative_numbers = true)]
    Compare(CompareArgs),
    /// Check pinned expectations ([[expect]] in specs, and baselines written
    /// by --update). Exit 0 when all hold, 1 when any moved, 2 on bad input.
    #[command(after_help = CHECK_EXAMPLES, allow_negative_numbers = true)]
    Check(CheckArgs),
    /// Exact distribution of dice expressions: table, mean, sd, bars.
    #[command(after_help = grammar())]
    Prob(ProbArgs),
    /// Combine the shard files of `run --shard I/N` into the report the
    /// unsharded run writes, byte for byte.
    #[command(after_help = MERGE_EXAMPLES)]
    Merge(MergeArgs),
    /// Start a spec: a commented TOML with every parameter of SYSTEM's
    /// SCENARIO from the registry, the rule variants and the metrics.
    #[command(
        after_help = "Examples:\n  krunch new gce shooting > my_shooting.toml\n  krunch new bfg boarding --output experiments/boarding.toml\n  krunch list      (the rule sets and scenarios there are)"
    )]
    New(NewArgs),
    /// Shell completions (bash, zsh, fish, elvish, powershell) to stdout.
    #[command(
        after_help = "Examples:\n  krunch completions bash > ~/.local/share/bash-completion/completions/krunch\n  krunch completions zsh > ~/.zfunc/_krunch\n  krunch completions fish > ~/.config/fish/completions/krunch.fish"
    )]
    Completions(CompletionsArgs),
    /// Manual pages (roff): krunch(1) to stdout, one sub-command's page
    /// (`krunch man run` is krunch-run(1)), or with --dir every page as a
    /// file: krunch.1, krunch-run.1, krunch-compare.1, ...
    #[command(
        after_help = "Examples:\n  krunch man > krunch.1 && man ./krunch.1\n  krunch man compare | man -l -\n  krunch man --dir ~/.local/share/man/man1   # every page; then `man krunch-run`"
    )]
    Man(ManArgs),
    /// Roll a dice expression (reproducibly with --seed).
    #[command(after_help = grammar(), allow_negative_numbers = true)]
    Roll(RollArgs),
}

/// Options of `krunch run`.
#[derive(Args)]
pub struct RunArgs {
    /// Spec files to run; `-` reads one spec from standard input (its
    /// report is named by its `name`, else `stdin`).
    #[arg(required = true)]
    pub specs: Vec<PathBuf>,
    /// Folder that receives one sub-folder per spec.
    #[arg(long, default_value = "reports")]
    pub out: PathBuf,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Override every spec's trial count.
    #[arg(long)]
    pub trials: Option<u64>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Run only share I of N of every spec (its chunks c with c % N = I-1)
    /// and write the tallies to <out>/<name>.shard-I-of-N.json for
    /// `krunch merge`, instead of a report.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
}

/// Options of `krunch merge`.
#[derive(Args)]
pub struct MergeArgs {
    /// The spec the shards ran.
    pub spec: PathBuf,
    /// Every shard file of the run (<name>.shard-I-of-N.json), each once.
    #[arg(required = true)]
    pub shards: Vec<PathBuf>,
    /// Folder that receives the report's sub-folder.
    #[arg(long, default_value = "reports")]
    pub out: PathBuf,
    /// No closing note.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Options of `krunch new`.
#[derive(Args)]
pub struct NewArgs {
    /// A rule set (see `krunch list`).
    pub system: String,
    /// One of its scenarios.
    pub scenario: String,
    /// Write the spec here (refused if the file exists) instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

/// Options of `krunch man`.
#[derive(Args)]
pub struct ManArgs {
    /// The sub-command whose page to print (krunch-SUBCOMMAND(1));
    /// without it, krunch(1).
    pub subcommand: Option<String>,
    /// Write every page (krunch.1 and one per sub-command) into this folder
    /// instead of printing one.
    #[arg(long, conflicts_with = "subcommand", value_hint = clap::ValueHint::DirPath)]
    pub dir: Option<PathBuf>,
}

/// Options of `krunch completions`.
#[derive(Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Options of `krunch list`.
#[derive(Args)]
pub struct ListArgs {
    /// A rule set (gce, bfg).
    pub system: Option<String>,
    /// One of its scenarios.
    pub scenario: Option<String>,
    /// Output format: text to read, or JSON for programs.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Options of `krunch compare`.
#[derive(Args)]
pub struct CompareArgs {
    /// One spec (with --variant) or two specs (before, after).
    #[arg(required = true, num_args = 1..=2)]
    pub specs: Vec<PathBuf>,
    /// A rule variant (overwatch=original) or a stat override
    /// (strength=4) applied to every profile of the "after" side.
    #[arg(long = "variant", value_name = "NAME=VALUE")]
    pub variants: Vec<String>,
    /// Significance level of each comparison.
    #[arg(long, default_value_t = 0.01)]
    pub alpha: f64,
    /// What to print: the summary, or a table to paste.
    #[arg(long, value_enum, default_value_t = Print::Summary)]
    pub print: Print,
    /// Tables keep only the rows that change significantly (printed, and
    /// in compare.md, compare.wiki and report.html; compare.csv keeps all).
    #[arg(long)]
    pub changed_only: bool,
    /// Compare only this metric (its id, as `krunch list` names it);
    /// repeat for several. Without it, every metric of the spec.
    #[arg(long = "metric", value_name = "NAME")]
    pub metrics: Vec<String>,
    /// Folder for the outputs (a sub-folder per comparison).
    #[arg(long, default_value = "reports")]
    pub out: PathBuf,
    /// Override the trial count.
    #[arg(long)]
    pub trials: Option<u64>,
    /// Ignore exact values: judge every change by the paired test.
    #[arg(long)]
    pub monte_carlo: bool,
    /// Worker threads (results do not depend on it).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Options of `krunch check`.
#[derive(Args)]
pub struct CheckArgs {
    /// Specs or folders of specs (default: experiments/).
    pub targets: Vec<PathBuf>,
    /// Family-wise false-alarm rate over all Monte Carlo checks.
    #[arg(long, default_value_t = 1e-3)]
    pub alpha: f64,
    /// Write baselines/<name>.toml beside each spec from the current
    /// results; refused (exit 1) while a spec's own [[expect]] fails.
    #[arg(long)]
    pub update: bool,
    /// With --update: write baselines even when a spec's own
    /// [[expect]] fails.
    #[arg(long, requires = "update")]
    pub force: bool,
    /// Also write JUnit XML here.
    #[arg(long)]
    pub junit: Option<PathBuf>,
    /// Ignore exact values and test the Monte Carlo estimates.
    #[arg(long)]
    pub monte_carlo: bool,
    /// Override every spec's seed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Print every expectation, not only the moved ones.
    #[arg(long, short)]
    pub verbose: bool,
    /// Pass over specs with nothing pinned (no [[expect]], no baseline)
    /// with a note, instead of refusing them (exit 2): a check that
    /// checks nothing cannot fail, so by default it is an error.
    #[arg(long)]
    pub allow_unpinned: bool,
}

/// Options of `krunch prob`.
#[derive(Args)]
pub struct ProbArgs {
    /// Expressions; several are shown side by side.
    #[arg(required = true)]
    pub expressions: Vec<String>,
    /// Output format: a table to read, JSON, or CSV (one row per expression
    /// and outcome: expression, value, p, p_at_least, p_at_most).
    #[arg(long, value_enum, default_value_t = ProbFormat::Table)]
    pub format: ProbFormat,
    /// Also draw the distribution(s) to this .svg or .png file.
    #[arg(long)]
    pub chart: Option<PathBuf>,
}

/// Options of `krunch roll`.
#[derive(Args)]
pub struct RollArgs {
    /// The expression.
    #[arg(allow_hyphen_values = true)]
    pub expression: String,
    /// How many rolls.
    #[arg(short = 'n', long, default_value_t = 1)]
    pub count: u64,
    /// Seed; the same seed gives the same rolls. Without one, a seed is
    /// picked and printed to stderr.
    #[arg(long)]
    pub seed: Option<u64>,
}

/// What `compare` prints.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Print {
    Summary,
    Markdown,
    Wiki,
}

/// How `list` prints.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Format {
    Table,
    Json,
}

/// How `prob` prints: a table, JSON, or CSV (one row per expression and
/// outcome: expression, value, p, p_at_least, p_at_most).
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum ProbFormat {
    Table,
    Json,
    Csv,
}

/// The dice-expression grammar shown by `prob --help` and `roll --help`,
/// with the named dice the rule sets supply.
fn grammar() -> String {
    GRAMMAR.replace("{named}", &krunch::systems::named_dice::help())
}

/// [`grammar`] with `{named}` where the named dice go.
const GRAMMAR: &str = "\
Dice expressions:
  NdX          N dice with X sides (d6 = 1d6; d3, d20, d100 ...)
  d{1,1,2,2,3,0}  a die with these faces     {named}df  Fudge die
  4d6k3        keep the highest 3 (also kh3)    5d10kl2   keep the lowest 2
  d6!          explode: a top face rolls again and adds (Kry-Gothic's exploding
               sixes); at most 20 extra dice, or set the depth: d6!3
  d6r1         reroll 1s once; d6r<3 below 3; d6r<=2 two or less
  + - *        with numbers and other dice: d6+3, 2*d3, 3d6-d6
  2d6<=7       a comparison gives a probability (also < > >= == !=); a pool
               is compared by its total: 2d6<=6 is P(total <= 6) = 15/36
  count(10d6>=5)  how many of the 10 dice show 5 or more (0 to 10), a number
               like any other: count(10d6>=5)>=3 is P(at least 3 pass).
               The old 10d6>=5 (a total, always true) is refused

Examples:
  krunch prob 4d6k3
  krunch prob \"2d6<=7\" --format json
  krunch prob 5d10!9k3 10d10!9k5 --chart keep.svg
  krunch roll 3d6 -n 5 --seed 42

Malformed expressions exit with code 2 and point at the offending character.";

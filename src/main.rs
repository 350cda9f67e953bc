//! The `krunch` command line: parse options, load specs, run, write reports.

use anyhow::Context;
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use krunch::dice::{BatchedRoller, Expr};
use krunch::{experiment, limits, report, systems};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const EXAMPLES: &str = "\
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
  krunch prob \"4d6k3\" \"2d6<=7\" \"10d6>=5\"
      exact distributions of dice expressions (see `krunch prob --help`)
  krunch roll \"sf+sf\" -n 10 --seed 1
      roll an expression, reproducibly

Exit codes: 0 success, 1 `check` found a moved expectation, 2 bad input
(the message names file, line and field).";

#[derive(Parser)]
#[command(
    name = "krunch",
    version,
    about = "How likely is it? Exact and Monte Carlo odds for tabletop wargame rules.",
    after_help = EXAMPLES
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run experiment specs (TOML) and write CSV, charts and a summary for each.
    #[command(after_help = EXAMPLES, allow_negative_numbers = true)]
    Run {
        /// Spec files to run.
        #[arg(required = true)]
        specs: Vec<PathBuf>,
        /// Folder that receives one sub-folder per spec.
        #[arg(long, default_value = "reports")]
        out: PathBuf,
        /// Worker threads (default: all cores). Results do not depend on it.
        #[arg(long)]
        threads: Option<usize>,
        /// Override every spec's trial count.
        #[arg(long)]
        trials: Option<u64>,
        /// No progress bar.
        #[arg(long, short)]
        quiet: bool,
    },
    /// List rule sets and scenarios; `list SYSTEM SCENARIO` shows a
    /// scenario's parameters (type, default or "required"), metrics,
    /// presets with their stats, and rule variants.
    #[command(
        after_help = "Examples:\n  krunch list\n  krunch list gce\n  krunch list gce shooting"
    )]
    List {
        /// A rule set (gce, bfg).
        system: Option<String>,
        /// One of its scenarios.
        scenario: Option<String>,
    },
    /// Before/after of a rule change: one spec with --variant NAME=VALUE, or
    /// two specs with the same sweep. Paired trials on common random numbers.
    #[command(allow_negative_numbers = true)]
    Compare {
        /// One spec (with --variant) or two specs (before, after).
        #[arg(required = true, num_args = 1..=2)]
        specs: Vec<PathBuf>,
        /// A rule variant (overwatch=original) or a stat override
        /// (strength=4) applied to every profile of the "after" side.
        #[arg(long = "variant", value_name = "NAME=VALUE")]
        variants: Vec<String>,
        /// Significance level of each comparison.
        #[arg(long, default_value_t = 0.01)]
        alpha: f64,
        /// What to print: the summary, or a table to paste.
        #[arg(long, value_enum, default_value_t = Print::Summary)]
        print: Print,
        /// Folder for the outputs (a sub-folder per comparison).
        #[arg(long, default_value = "reports")]
        out: PathBuf,
        /// Override the trial count.
        #[arg(long)]
        trials: Option<u64>,
        /// Ignore exact values: judge every change by the paired test.
        #[arg(long)]
        monte_carlo: bool,
        /// Worker threads (results do not depend on it).
        #[arg(long)]
        threads: Option<usize>,
        /// No progress bar.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Check pinned expectations ([[expect]] in specs, and baselines written
    /// by --update). Exit 0 when all hold, 1 when any moved, 2 on bad input.
    #[command(allow_negative_numbers = true)]
    Check {
        /// Specs or folders of specs (default: experiments/).
        targets: Vec<PathBuf>,
        /// Family-wise false-alarm rate over all Monte Carlo checks.
        #[arg(long, default_value_t = 1e-3)]
        alpha: f64,
        /// Write baselines/<name>.toml beside each spec from the current
        /// results; refused (exit 1) while a spec's own [[expect]] fails.
        #[arg(long)]
        update: bool,
        /// With --update: write baselines even when a spec's own
        /// [[expect]] fails.
        #[arg(long, requires = "update")]
        force: bool,
        /// Also write JUnit XML here.
        #[arg(long)]
        junit: Option<PathBuf>,
        /// Ignore exact values and test the Monte Carlo estimates.
        #[arg(long)]
        monte_carlo: bool,
        /// Override every spec's seed.
        #[arg(long)]
        seed: Option<u64>,
        /// Print every expectation, not only the moved ones.
        #[arg(long, short)]
        verbose: bool,
    },
    /// Exact distribution of dice expressions: table, mean, sd, bars.
    #[command(after_help = GRAMMAR)]
    Prob {
        /// Expressions; several are shown side by side.
        #[arg(required = true)]
        expressions: Vec<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
        /// Also draw the distribution(s) to this .svg or .png file.
        #[arg(long)]
        chart: Option<PathBuf>,
    },
    /// Roll a dice expression (reproducibly with --seed).
    #[command(after_help = GRAMMAR, allow_negative_numbers = true)]
    Roll {
        /// The expression.
        #[arg(allow_hyphen_values = true)]
        expression: String,
        /// How many rolls.
        #[arg(short = 'n', long, default_value_t = 1)]
        count: u64,
        /// Seed; the same seed gives the same rolls. Without one, a seed is
        /// picked and printed to stderr.
        #[arg(long)]
        seed: Option<u64>,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Print {
    Summary,
    Markdown,
    Wiki,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Format {
    Table,
    Json,
}

const GRAMMAR: &str = "\
Dice expressions:
  NdX          N dice with X sides (d6 = 1d6; d3, d20, d100 ...)
  d{1,1,2,2,3,0}  a die with these faces     sf  Sustained Fire die (JAM = 0)   df  Fudge die
  4d6k3        keep the highest 3 (also kh3)    5d10kl2   keep the lowest 2
  d6!          explode: a top face rolls again and adds (Kry-Gothic's exploding
               sixes); at most 20 extra dice, or set the depth: d6!3
  d6r1         reroll 1s once; d6r<3 below 3; d6r<=2 two or less
  + - *        with numbers and other dice: d6+3, 2*d3, 3d6-d6
  2d6<=7       a comparison gives a probability (also < > >= == !=)
  10d6>=5      a bare pool compared with one of its faces counts the dice
               that pass; (2d6)<=5 compares the total instead
Examples:
  krunch prob 4d6k3
  krunch prob \"2d6<=7\" --format json
  krunch prob 5d10!9k3 10d10!9k5 --chart keep.svg
  krunch roll 3d6 -n 5 --seed 42
Malformed expressions exit with code 2 and point at the offending character.";

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run {
            specs,
            out,
            threads,
            trials,
            quiet,
        } => run(&specs, &out, threads, trials, quiet),
        Command::List { system, scenario } => {
            systems::registry::list_text(system.as_deref(), scenario.as_deref())
                .map(|text| print!("{text}"))
                .map_err(|e| anyhow::anyhow!(e.message))
        }
        Command::Compare {
            specs,
            variants,
            alpha,
            print,
            out,
            trials,
            monte_carlo,
            threads,
            quiet,
        } => compare(
            &specs,
            &variants,
            alpha,
            print,
            &out,
            trials,
            monte_carlo,
            threads,
            quiet,
        ),
        Command::Check {
            targets,
            alpha,
            update,
            force,
            junit,
            monte_carlo,
            seed,
            verbose,
        } => {
            let options = experiment::check::CheckOptions {
                family_alpha: alpha,
                monte_carlo_only: monte_carlo,
                seed,
            };
            match check(
                &targets,
                options,
                (update, force),
                junit.as_deref(),
                verbose,
            ) {
                Ok(true) => Ok(()),
                Ok(false) => return ExitCode::from(1),
                Err(e) => Err(e),
            }
        }
        Command::Prob {
            expressions,
            format,
            chart,
        } => prob(&expressions, format, chart.as_deref()),
        Command::Roll {
            expression,
            count,
            seed,
        } => roll(&expression, count, seed),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stopped early (`| head`) is not an error.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Whether `e` comes from writing to a closed pipe.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Progress bars from one place; hidden when stderr is not a terminal.
fn progress(total: u64, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{msg:>24} [{bar:40}] {percent:>3}% {per_sec} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar
}

fn set_threads(threads: Option<usize>) -> anyhow::Result<()> {
    if let Some(n) = threads {
        limits::check_threads(n).map_err(anyhow::Error::msg)?;
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .context("starting worker threads")?;
    }
    Ok(())
}

fn run(
    specs: &[PathBuf],
    out: &Path,
    threads: Option<usize>,
    trials: Option<u64>,
    quiet: bool,
) -> anyhow::Result<()> {
    set_threads(threads)?;
    // Validate every spec before running any, so a typo in the last one does
    // not cost the runs of the first.
    let mut loaded = Vec::new();
    for path in specs {
        let mut exp = experiment::load(path)?;
        if let Some(t) = trials {
            limits::check_trials(t).map_err(anyhow::Error::msg)?;
            exp.trials = t;
        }
        loaded.push(exp);
    }
    // Every report folder is named and checked before anything runs.
    let mut dirs: Vec<(PathBuf, &Path)> = Vec::new();
    for (exp, path) in loaded.iter().zip(specs) {
        let dir = report::folder_in(out, &exp.name)?;
        if let Some((_, first)) = dirs.iter().find(|(d, _)| *d == dir) {
            anyhow::bail!(
                "{}: name: '{}' is also the name of {}; both would write {}",
                path.display(),
                exp.name,
                first.display(),
                dir.display()
            );
        }
        dirs.push((dir, path));
    }
    prepare_out(out)?;
    report::register_fonts();
    for (exp, (dir, _)) in loaded.iter().zip(dirs) {
        let total = exp.trials * (exp.models.len() * exp.profiles.len()) as u64;
        let bar = progress(total, quiet);
        bar.set_message(exp.name.clone());
        let results = experiment::run(exp, &|n| bar.inc(n));
        bar.finish_and_clear();
        report::write_report(&dir, exp, &results)
            .with_context(|| format!("writing {}", dir.display()))?;
        if !quiet {
            eprintln!(
                "{}: {} rows -> {}",
                exp.name,
                results.rows.len(),
                dir.display()
            );
        }
    }
    Ok(())
}

/// Creates `out` (so a bad --out fails before any computing) and cleans
/// what interrupted runs left in it.
fn prepare_out(out: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(out).with_context(|| format!("--out {}", out.display()))?;
    for note in report::recover(out).with_context(|| format!("cleaning {}", out.display()))? {
        eprintln!("{note}");
    }
    Ok(())
}

fn parse_expression(text: &str) -> anyhow::Result<Expr> {
    Expr::parse(text).map_err(|e| anyhow::anyhow!("{e}"))
}

fn prob(expressions: &[String], format: Format, chart: Option<&Path>) -> anyhow::Result<()> {
    let mut parsed = Vec::new();
    for text in expressions {
        let e = parse_expression(text)?;
        let d = e.exact().map_err(|m| anyhow::anyhow!("{text}: {m}"))?;
        parsed.push((text.as_str(), e.describe(), d));
    }
    let items: Vec<report::Named> = parsed
        .iter()
        .map(|(text, reading, dist)| report::Named {
            expression: text,
            reading: reading.clone(),
            dist,
        })
        .collect();
    let text = match format {
        Format::Table => report::distribution_text(&items),
        Format::Json => format!("{}\n", report::distribution_json(&items)),
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    if let Some(path) = chart {
        report::write_distribution_chart(path, &items)?;
    }
    Ok(())
}

fn roll(expression: &str, count: u64, seed: Option<u64>) -> anyhow::Result<()> {
    let e = parse_expression(expression)?;
    anyhow::ensure!(count <= 100_000_000, "-n {count}: at most 100000000 rolls");
    let dice = e.dice_per_sample() * count as f64;
    anyhow::ensure!(
        dice <= krunch::dice::MAX_ROLL_DICE,
        "-n {count}: {expression} throws about {:.1e} dice per roll, {dice:.1e} in all, more than the {:.0e} allowed (about five seconds); ask for fewer rolls",
        e.dice_per_sample(),
        krunch::dice::MAX_ROLL_DICE
    );
    let seed = seed.unwrap_or_else(|| {
        let s = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        eprintln!("seed {s} (repeat with --seed {s})");
        s
    });
    let mut dice = BatchedRoller::new(seed, &[0]);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for _ in 0..count {
        writeln!(out, "{}", e.sample(&mut dice))?;
    }
    out.flush()?;
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn compare(
    specs: &[PathBuf],
    variants: &[String],
    alpha: f64,
    print: Print,
    out: &Path,
    trials: Option<u64>,
    monte_carlo: bool,
    threads: Option<usize>,
    quiet: bool,
) -> anyhow::Result<()> {
    set_threads(threads)?;
    anyhow::ensure!(
        alpha > 0.0 && alpha < 0.5,
        "--alpha {alpha} must be between 0 and 0.5"
    );
    let overrides = variants
        .iter()
        .map(|v| {
            experiment::check::parse_assignment(v).map_err(|m| anyhow::anyhow!("--variant {m}"))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let (mut before, mut after, name, change) = match specs {
        [one] => {
            anyhow::ensure!(
                !overrides.is_empty(),
                "{}: give --variant NAME=VALUE (the change to measure), or a second spec",
                one.display()
            );
            let before = experiment::load(one)?;
            let after = experiment::load_with(one, &overrides)?;
            let name = format!("{}-compare", before.name);
            (before, after, name, variants.join(", "))
        }
        [a, b] => {
            anyhow::ensure!(
                overrides.is_empty(),
                "--variant goes with one spec; with two, the second spec is the change"
            );
            let before = experiment::load(a)?;
            let after = experiment::load(b)?;
            let name = format!("{}-vs-{}", before.name, after.name);
            let change = format!("{} -> {}", a.display(), b.display());
            (before, after, name, change)
        }
        _ => anyhow::bail!("compare takes one spec with --variant, or two specs"),
    };
    if let Some(t) = trials {
        limits::check_trials(t).map_err(anyhow::Error::msg)?;
        before.trials = t;
        after.trials = t;
    }
    experiment::compare::comparable(&before, &after).map_err(|m| anyhow::anyhow!(m))?;
    let dir = report::folder_in(out, &name)?;
    prepare_out(out)?;
    report::register_fonts();
    let total =
        before.trials.max(after.trials) * (before.models.len() * before.profiles.len()) as u64;
    let bar = progress(total, quiet);
    bar.set_message(name.clone());
    let changes =
        experiment::compare::compare(&before, &after, alpha, monte_carlo, &|n| bar.inc(n))
            .map_err(|m| anyhow::anyhow!(m))?;
    bar.finish_and_clear();
    let summary = report::write_compare(&dir, &before, &changes, &change)?;
    match print {
        Print::Summary => print!("{summary}"),
        Print::Markdown => print!("{}", report::compare_markdown(&before, &changes)),
        Print::Wiki => print!(
            "{}",
            report::mediawiki(&before, &changes, &format!("{}: {change}", before.title))
        ),
    }
    if !quiet {
        eprintln!("written: {}/compare.{{md,wiki,csv,svg,png}}", dir.display());
    }
    Ok(())
}

/// Runs every expectation; returns whether all hold.
fn check(
    targets: &[PathBuf],
    options: experiment::check::CheckOptions,
    (update, force): (bool, bool),
    junit: Option<&Path>,
    verbose: bool,
) -> anyhow::Result<bool> {
    anyhow::ensure!(
        options.family_alpha > 0.0 && options.family_alpha < 0.5,
        "--alpha {} must be between 0 and 0.5",
        options.family_alpha
    );
    let default = [PathBuf::from("experiments")];
    let targets = if targets.is_empty() {
        &default[..]
    } else {
        targets
    };
    let files = experiment::check::spec_files(targets).context("listing specs")?;
    anyhow::ensure!(!files.is_empty(), "no specs found in {targets:?}");
    let mut specs = Vec::new();
    for file in &files {
        let mut exp = experiment::load(file)?;
        if let Some(seed) = options.seed {
            exp.seed = seed;
        }
        let baseline = experiment::check::baseline_path(file, &exp);
        if let Some(dir) = baseline.parent().filter(|d| d.is_dir()) {
            prepare_out(dir)?;
        }
        if update {
            // A baseline pins today's numbers: refuse while the spec's own
            // expectations say today's numbers are wrong.
            let own =
                experiment::check::check(&exp, &exp.expectations, exp.expectations.len(), options);
            let failing: Vec<_> = own.iter().filter(|o| !o.passed).collect();
            if !failing.is_empty() && !force {
                for o in &failing {
                    println!("{}", report::describe_outcome(o));
                }
                println!(
                    "{}: {} of its own [[expect]] fail, so no baseline was written (fix the rule or the expectation, or pass --force)",
                    file.display(),
                    failing.len()
                );
                return Ok(false);
            }
            if let Some(dir) = baseline.parent() {
                std::fs::create_dir_all(dir).with_context(|| format!("{}", dir.display()))?;
            }
            let results = experiment::run(&exp, &|_| {});
            experiment::check::write_baseline(&baseline, &exp, &results)?;
            eprintln!(
                "{}: baseline written to {}",
                file.display(),
                baseline.display()
            );
            continue;
        }
        let mut expected = exp.expectations.clone();
        if baseline.exists() {
            expected.extend(experiment::check::read_baseline(&baseline, &exp)?);
        }
        specs.push((file.clone(), exp, expected));
    }
    if update {
        return Ok(true);
    }
    // The Bonferroni level counts every Monte Carlo check of the run.
    let mc_checks: usize = specs
        .iter()
        .map(|(_, exp, expected)| {
            expected
                .iter()
                .filter(|e| {
                    options.monte_carlo_only
                        || e.std_error > 0.0
                        || exp.models[e.cell][e.profile].exact().is_none()
                })
                .count()
        })
        .sum();
    let mut all = Vec::new();
    for (file, exp, expected) in &specs {
        if expected.is_empty() {
            eprintln!(
                "{}: no expectations ([[expect]] in the spec, or `krunch check --update`)",
                file.display()
            );
        }
        for o in experiment::check::check(exp, expected, mc_checks, options) {
            all.push((file.display().to_string(), o));
        }
    }
    let failed = all.iter().filter(|(_, o)| !o.passed).count();
    for (_, o) in &all {
        if verbose || !o.passed {
            println!("{}", report::describe_outcome(o));
        }
    }
    println!(
        "{} expectations in {} specs: {} hold, {} moved (family-wise false-alarm rate {:.0e} over {} Monte Carlo checks)",
        all.len(),
        specs.len(),
        all.len() - failed,
        failed,
        options.family_alpha,
        mc_checks
    );
    if let Some(path) = junit {
        report::write_atomic(path, report::junit(&all).as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(failed == 0)
}

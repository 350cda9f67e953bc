//! The `krunch` command line: parse options, load specs, run, write reports.

use anyhow::Context;
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use krunch::dice::{BatchedRoller, Expr};
use krunch::{experiment, report, systems};
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
  krunch prob \"4d6k3\" \"2d6<=7\" \"10d6>=5\"
      exact distributions of dice expressions (see `krunch prob --help`)
  krunch roll \"sf+sf\" -n 10 --seed 1
      roll an expression, reproducibly

Exit codes: 0 success, 2 bad input (the message names file, line and field).";

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
    #[command(after_help = EXAMPLES)]
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
    /// List rule sets, scenarios, presets, metrics and rule variants.
    List,
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
    #[command(after_help = GRAMMAR)]
    Roll {
        /// The expression.
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
        Command::List => {
            list();
            Ok(())
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
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn list() {
    for s in systems::catalog() {
        println!("{} — {}", s.name, s.title);
        println!("  scenarios: {}", s.scenarios.join(", "));
        println!("  presets:   {}", s.presets.join(", "));
        println!("  variants:");
        for v in s.variants {
            println!(
                "    {} = {} (default {}): {}",
                v.name,
                v.values.join(" | "),
                v.values[0],
                v.about
            );
        }
        println!("  metrics:");
        for (name, about) in &s.metrics {
            println!("    {name:<28} {about}");
        }
    }
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

fn run(
    specs: &[PathBuf],
    out: &Path,
    threads: Option<usize>,
    trials: Option<u64>,
    quiet: bool,
) -> anyhow::Result<()> {
    if let Some(n) = threads {
        anyhow::ensure!(n >= 1, "--threads must be at least 1");
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .context("starting worker threads")?;
    }
    // Validate every spec before running any, so a typo in the last one does
    // not cost the runs of the first.
    let mut loaded = Vec::new();
    for path in specs {
        let mut exp = experiment::load(path)?;
        if let Some(t) = trials {
            anyhow::ensure!(t >= 1, "--trials must be at least 1");
            exp.trials = t;
        }
        loaded.push(exp);
    }
    report::register_fonts();
    for exp in &loaded {
        let total = exp.trials * (exp.models.len() * exp.profiles.len()) as u64;
        let bar = progress(total, quiet);
        bar.set_message(exp.name.clone());
        let results = experiment::run(exp, &|n| bar.inc(n));
        bar.finish_and_clear();
        let dir = out.join(&exp.name);
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
    match format {
        Format::Table => print!("{}", report::distribution_text(&items)),
        Format::Json => println!("{}", report::distribution_json(&items)),
    }
    if let Some(path) = chart {
        report::write_distribution_chart(path, &items)?;
    }
    Ok(())
}

fn roll(expression: &str, count: u64, seed: Option<u64>) -> anyhow::Result<()> {
    let e = parse_expression(expression)?;
    anyhow::ensure!(count <= 100_000_000, "-n {count}: at most 100000000 rolls");
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

//! The `krunch` command line: parse options, load specs, run, write reports.

use anyhow::Context;
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use krunch::{experiment, report, systems};
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
}

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
        report::write_csv(&dir, exp, &results)
            .with_context(|| format!("writing {}", dir.display()))?;
        let charts = report::write_charts(&dir, exp, &results)
            .with_context(|| format!("charts in {}", dir.display()))?;
        report::write_summary(&dir, exp, &results, &charts)?;
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

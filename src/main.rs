//! The `krunch` command line: parse the options ([`cli`]), hand them to the
//! library (`experiment` loads, runs, compares and checks; `report` writes),
//! print, and turn the outcome into an exit code.

mod cli;

use anyhow::Context;
use clap::Parser;
use cli::{
    CheckArgs, Cli, Command, CompareArgs, Format, ManArgs, MergeArgs, Print, ProbArgs, ProbFormat,
    RollArgs, RunArgs,
};
use indicatif::{ProgressBar, ProgressStyle};
use krunch::dice::{BatchedRoller, Expr};
use krunch::experiment::{self, check, compare};
use krunch::{limits, report, systems};
use rayon::prelude::*;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// What a command found, when it ran to the end.
enum Verdict {
    /// Done (exit 0).
    Done,
    /// `check` found an expectation that moved (exit 1).
    Moved,
}

fn main() -> ExitCode {
    let verdict = match Cli::parse().command {
        Command::Run(args) => run(args).map(|()| Verdict::Done),
        Command::List(args) => list(args).map(|()| Verdict::Done),
        Command::Compare(args) => compare(args).map(|()| Verdict::Done),
        Command::Check(args) => check(args),
        Command::Prob(args) => prob(args).map(|()| Verdict::Done),
        Command::Merge(args) => merge(args).map(|()| Verdict::Done),
        Command::New(args) => new_spec(args).map(|()| Verdict::Done),
        Command::Completions(args) => {
            let mut cmd = completion_command();
            // into memory first: clap_complete panics on a closed pipe
            let mut script = Vec::new();
            clap_complete::generate(args.shell, &mut cmd, "krunch", &mut script);
            if args.shell == clap_complete::Shell::Fish {
                script.extend_from_slice(fish_names().as_bytes());
            }
            say(&String::from_utf8_lossy(&script)).map(|()| Verdict::Done)
        }
        Command::Man(args) => man(args).map(|()| Verdict::Done),
        Command::Roll(args) => roll(args).map(|()| Verdict::Done),
    };
    exit_code(verdict)
}

/// Writes `text` to stdout. A reader that went away (`krunch compare ...
/// --print wiki | head`) comes back as the broken-pipe error that
/// [`exit_code`] ends quietly on, where `print!` would panic.
fn say(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(report::escape::terminal(text).as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Writes one line to stderr, its control characters shown, not obeyed
/// (a profile named with ESC or BEL cannot drive the terminal).
fn note(text: &str) {
    eprintln!("{}", report::escape::terminal(text));
}

/// Whether stdout still has a reader after `printed`: false when it went
/// away (a broken pipe); other errors stay errors.
fn still_read(printed: anyhow::Result<()>) -> anyhow::Result<bool> {
    match printed {
        Ok(()) => Ok(true),
        Err(e) if is_broken_pipe(&e) => Ok(false),
        Err(e) => Err(e),
    }
}

/// 0 done, 1 an expectation moved, 2 bad input (the message says where),
/// 3 an input/output failure (writing failed: disk full, no permission).
fn exit_code(verdict: anyhow::Result<Verdict>) -> ExitCode {
    match verdict {
        Ok(Verdict::Done) => ExitCode::SUCCESS,
        Ok(Verdict::Moved) => ExitCode::from(1),
        // A reader that stopped early (`| head`) is not an error.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            note(&format!("error: {e:#}"));
            ExitCode::from(if is_io_failure(&e) { 3 } else { 2 })
        }
    }
}

/// Whether `e` is an input/output failure (an `std::io::Error` in its
/// chain): bad input is reported as text naming file, line and field, so
/// it carries none.
fn is_io_failure(e: &anyhow::Error) -> bool {
    e.chain()
        .any(|c| c.downcast_ref::<std::io::Error>().is_some())
}

/// Whether `e` comes from writing to a closed pipe.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Progress bars from one place; hidden when stderr is not a terminal.
fn progress(total: u64, quiet: bool, name: &str) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{msg:>24} [{bar:40}] {percent:>3}% {per_sec} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_message(name.to_string());
    bar
}

fn set_threads(threads: Option<usize>) -> anyhow::Result<()> {
    if let Some(n) = threads {
        limits::check_threads(n)?;
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .context("starting worker threads")?;
    }
    Ok(())
}

/// [`report::prepare_out`], saying what it cleaned. An `--out` that cannot
/// be a folder (a file is there) is bad input, exit 2.
fn prepare_out(out: &Path) -> anyhow::Result<()> {
    if out.exists() && !out.is_dir() {
        anyhow::bail!("--out {}: exists and is not a folder", out.display());
    }
    for note in report::prepare_out(out)? {
        eprintln!("{note}");
    }
    Ok(())
}

/// Says what a spec should be told (preset stats its scenario does not
/// read), unless `quiet`.
fn tell(exp: &experiment::Experiment, quiet: bool) {
    if !quiet {
        for n in &exp.notes {
            note(&format!("note: {n}"));
        }
    }
}

/// `krunch run`: every spec validated and every report folder named before
/// any runs; then each run and written whole.
fn run(args: RunArgs) -> anyhow::Result<()> {
    let shard = args
        .shard
        .as_deref()
        .map(experiment::shard::parse_shard)
        .transpose()?;
    set_threads(args.threads)?;
    // loaded side by side (a model's build can take a while), then told
    // and checked in the order given: the first bad spec's error, as a
    // load one at a time would stop on
    let specs: Vec<anyhow::Result<experiment::Experiment>> = args
        .specs
        .par_iter()
        .map(|path| {
            let mut exp = experiment::load(path)?;
            exp.set_trials(args.trials)?;
            Ok(exp)
        })
        .collect();
    let mut loaded = Vec::new();
    for exp in specs {
        let exp: experiment::Experiment = exp?;
        tell(&exp, args.quiet);
        loaded.push(exp);
    }
    if let Some(shard) = shard {
        return run_shards(&args, &loaded, shard);
    }
    let dirs = report::report_folders(&args.out, &loaded)?;
    prepare_out(&args.out)?;
    report::register_fonts();
    // every spec at once on rayon's pool (each spreads its models and
    // chunks over the same pool), so a suite of small specs keeps both
    // cores busy; each report is still swapped in whole
    let total: u64 = loaded
        .iter()
        .map(|exp| exp.trials * (exp.models.len() * exp.profiles.len()) as u64)
        .sum();
    let name = match &loaded[..] {
        [one] => one.name.clone(),
        many => format!("{} specs", many.len()),
    };
    let bar = progress(total, args.quiet, &name);
    let written: Vec<anyhow::Result<usize>> = loaded
        .par_iter()
        .zip(&dirs)
        .map(|(exp, dir)| {
            let results = experiment::run(exp, &|n| bar.inc(n));
            report::write_report(dir, exp, &results)
                .with_context(|| format!("writing {}", dir.display()))?;
            Ok(results.rows.len())
        })
        .collect();
    bar.finish_and_clear();
    for ((exp, dir), rows) in loaded.iter().zip(&dirs).zip(written) {
        let rows = rows?;
        if !args.quiet {
            note(&report::labels::run_note(exp, rows, dir));
        }
    }
    Ok(())
}

/// `krunch run --shard I/N`: each spec's share, written as tallies.
fn run_shards(
    args: &RunArgs,
    loaded: &[experiment::Experiment],
    shard: experiment::Shard,
) -> anyhow::Result<()> {
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    for exp in loaded {
        let share: u64 = shard
            .chunks(exp.trials)
            .map(|c| experiment::CHUNK.min(exp.trials - c * experiment::CHUNK))
            .sum();
        let total = share * (exp.models.len() * exp.profiles.len()) as u64;
        let bar = progress(total, args.quiet, &exp.name);
        let file = experiment::shard::run_shard(exp, shard, &|n| bar.inc(n));
        bar.finish_and_clear();
        let path = experiment::shard::shard_path(&args.out, exp, shard);
        let mut text = serde_json::to_string(&file)?;
        text.push('\n');
        report::write_atomic(&path, text.as_bytes())?;
        if !args.quiet {
            eprintln!(
                "{}: shard {shard} ({share} of {} trials a cell) written to {}",
                exp.name,
                exp.trials,
                path.display()
            );
        }
    }
    Ok(())
}

/// `krunch merge SPEC SHARDS...`: the shards checked and added up, and the
/// report written as `run` writes it.
fn merge(args: MergeArgs) -> anyhow::Result<()> {
    let mut exp = experiment::load(&args.spec)?;
    tell(&exp, args.quiet);
    let shards = args
        .shards
        .iter()
        .map(|f| experiment::shard::read_shard(f, &exp))
        .collect::<Result<Vec<_>, _>>()?;
    let tallies = experiment::shard::merge(&mut exp, &args.shards, &shards)?;
    let dirs = report::report_folders(&args.out, std::slice::from_ref(&exp))?;
    prepare_out(&args.out)?;
    report::register_fonts();
    let results = experiment::results_from(&exp, &tallies);
    let dir = &dirs[0];
    report::write_report(dir, &exp, &results)
        .with_context(|| format!("writing {}", dir.display()))?;
    if !args.quiet {
        note(&format!(
            "{} shards merged; {}",
            shards.len(),
            report::labels::run_note(&exp, results.rows.len(), dir)
        ));
    }
    Ok(())
}

/// `krunch new SYSTEM SCENARIO`: the spec to stdout or a new file.
fn new_spec(args: cli::NewArgs) -> anyhow::Result<()> {
    let text = experiment::template::new_spec(&args.system, &args.scenario)
        .map_err(|e| anyhow::anyhow!(e.message))?;
    match &args.output {
        None => say(&text)?,
        Some(path) => {
            anyhow::ensure!(
                !path.exists(),
                "--output {}: the file exists; krunch new does not overwrite",
                path.display()
            );
            report::write_atomic(path, text.as_bytes())?;
            eprintln!(
                "written: {} (run it with `krunch run {}`)",
                path.display(),
                path.display()
            );
        }
    }
    Ok(())
}

/// `krunch man`: the manual page, from the same definition as `--help`.
fn man(args: ManArgs) -> anyhow::Result<()> {
    let mut cmd = <Cli as clap::CommandFactory>::command().disable_help_subcommand(true);
    // builds every sub-command too, naming each `krunch-<name>`
    cmd.build();
    let render = |c: &clap::Command| -> anyhow::Result<Vec<u8>> {
        let mut page = Vec::new();
        clap_mangen::Man::new(c.clone())
            .source(format!("krunch {}", env!("CARGO_PKG_VERSION")))
            .render(&mut page)?;
        Ok(page)
    };
    if let Some(dir) = &args.dir {
        std::fs::create_dir_all(dir).with_context(|| format!("--dir {}", dir.display()))?;
        let mut written = Vec::new();
        for c in std::iter::once(&cmd).chain(cmd.get_subcommands()) {
            let name = c.get_display_name().unwrap_or_else(|| c.get_name());
            let path = dir.join(format!("{name}.1"));
            report::write_atomic(&path, &render(c)?)?;
            written.push(path.display().to_string());
        }
        note(&format!("written: {}", written.join(", ")));
        return Ok(());
    }
    let page = match &args.subcommand {
        None => render(&cmd)?,
        Some(name) => {
            let names: Vec<&str> = cmd.get_subcommands().map(|c| c.get_name()).collect();
            let sub = cmd.find_subcommand(name).ok_or_else(|| {
                anyhow::anyhow!(
                    "man {name}: no such sub-command (pages: {}){}",
                    names.join(", "),
                    systems::did_you_mean(name, names.iter().copied())
                )
            })?;
            render(sub)?
        }
    };
    let mut out = std::io::stdout().lock();
    out.write_all(&page)?;
    out.flush()?;
    Ok(())
}

/// Fish completions of `list` and `new`'s rule set and scenario (clap's
/// fish script completes no positional values): the rule sets as the
/// first word after the sub-command, then the typed rule set's scenarios.
fn fish_names() -> String {
    let mut out = String::from("# krunch: rule sets, then the rule set's scenarios\n");
    let systems: Vec<&str> = systems::RULE_SETS.iter().map(|r| r.name).collect();
    for sub in ["list", "new"] {
        out.push_str(&format!(
            "complete -c krunch -n \"__fish_krunch_using_subcommand {sub}; and test (count (commandline -opc)) -eq 2\" -f -a \"{}\"\n",
            systems.join(" ")
        ));
        for rules in systems::RULE_SETS {
            let scenarios: Vec<&str> = rules.scenarios.iter().map(|s| s.name).collect();
            out.push_str(&format!(
                "complete -c krunch -n \"__fish_krunch_using_subcommand {sub}; and test (count (commandline -opc)) -eq 3; and test (commandline -opc)[3] = {}\" -f -a \"{}\"\n",
                rules.name,
                scenarios.join(" ")
            ));
        }
    }
    out
}

/// The command line as the shell completions see it: the same as `--help`,
/// with the rule-set names offered where `list` and `new` take a rule set
/// and every scenario name where they take a scenario (parsing itself
/// stays lenient, so a misspelt name gets krunch's own error and
/// suggestion).
fn completion_command() -> clap::Command {
    use clap::builder::PossibleValuesParser;
    let systems: Vec<&'static str> = systems::RULE_SETS.iter().map(|r| r.name).collect();
    let mut scenarios: Vec<&'static str> = systems::RULE_SETS
        .iter()
        .flat_map(|r| r.scenarios.iter().map(|s| s.name))
        .collect();
    scenarios.sort_unstable();
    scenarios.dedup();
    let mut cmd = <Cli as clap::CommandFactory>::command();
    for sub in ["list", "new"] {
        let (systems, scenarios) = (systems.clone(), scenarios.clone());
        cmd = cmd.mut_subcommand(sub, move |c| {
            c.mut_arg("system", |a| {
                a.value_parser(PossibleValuesParser::new(systems))
            })
            .mut_arg("scenario", |a| {
                a.value_parser(PossibleValuesParser::new(scenarios))
            })
        });
    }
    cmd
}

/// `krunch list [SYSTEM [SCENARIO]]`, as text or JSON.
fn list(args: cli::ListArgs) -> anyhow::Result<()> {
    let (system, scenario) = (args.system.as_deref(), args.scenario.as_deref());
    let text = match args.format {
        Format::Table => report::list_text(system, scenario),
        Format::Json => report::list_json(system, scenario)
            .map(|v| format!("{}\n", serde_json::to_string_pretty(&v).unwrap_or_default())),
    }
    .map_err(|e| anyhow::anyhow!(e.message))?;
    say(&text)?;
    Ok(())
}

/// `krunch compare`: set up by [`compare::Comparison`], run on common
/// random numbers, written to `<out>/<name>/`, one view printed.
fn compare(args: CompareArgs) -> anyhow::Result<()> {
    set_threads(args.threads)?;
    let comparison =
        compare::Comparison::load(&args.specs, &args.variants, args.alpha, args.trials)?;
    for m in &args.metrics {
        if !comparison.before.metrics.contains(m) {
            anyhow::bail!(
                "--metric {m}: not a metric of {} (its metrics: {}){}",
                comparison.before.file.display(),
                comparison.before.metrics.join(", "),
                systems::did_you_mean(m, comparison.before.metrics.iter().map(String::as_str))
            );
        }
    }
    tell(&comparison.before, args.quiet);
    let dir = report::folder_in(&args.out, &comparison.name)?;
    report::check_replaceable(&dir)?;
    prepare_out(&args.out)?;
    report::register_fonts();
    let bar = progress(comparison.total_trials(), args.quiet, &comparison.name);
    let mut changes = comparison.run(args.alpha, args.monte_carlo, &|n| bar.inc(n))?;
    bar.finish_and_clear();
    if !args.metrics.is_empty() {
        changes.retain(|c| args.metrics.contains(&c.metric));
    }
    let (before, after, sides) = (&comparison.before, &comparison.after, &comparison.sides);
    let options = report::CompareOptions {
        alpha: args.alpha,
        monte_carlo_only: args.monte_carlo,
        changed_only: args.changed_only,
    };
    report::write_compare(&dir, before, after, &changes, sides, &options)?;
    match args.print {
        Print::Summary => say(&report::compare_summary_document(
            before, after, &changes, sides, &options,
        ))?,
        Print::Markdown => say(&report::compare_markdown_document(
            before, after, &changes, sides, &options,
        ))?,
        Print::Wiki => say(&report::mediawiki_document(
            before, after, &changes, sides, &options,
        ))?,
    }
    if !changes.iter().any(|c| c.significant)
        && !args.quiet
        && !matches!(args.print, Print::Summary)
    {
        eprintln!(
            "note: nothing changes significantly ({} results compared)",
            changes.len()
        );
    }
    if !args.quiet {
        eprintln!(
            "written: {}/{{report.html,compare.md,compare.wiki,compare.csv,compare.svg,compare.png}}",
            dir.display()
        );
    }
    Ok(())
}

/// `krunch check`: every expectation of every spec (its `[[expect]]` and
/// its baseline) tested at one family-wise level; or, with `--update`,
/// baselines written from today's results.
fn check(args: CheckArgs) -> anyhow::Result<Verdict> {
    let options = check::CheckOptions {
        family_alpha: args.alpha,
        monte_carlo_only: args.monte_carlo,
        seed: args.seed,
    };
    let mut targets = Vec::new();
    for file in check::files_to_check(&args.targets, options)? {
        let mut target = check::Target::load(&file, options.seed)?;
        if let Some(dir) = target.baseline_dir() {
            prepare_out(dir)?;
        }
        if args.update {
            if update_baseline(&target, options, args.force)? {
                continue;
            }
            return Ok(Verdict::Moved);
        }
        target.read_baseline()?;
        targets.push(target);
    }
    if args.update {
        return Ok(Verdict::Done);
    }
    let unpinned: Vec<String> = targets
        .iter()
        .filter(|t| t.expected.is_empty())
        .map(|t| t.file.display().to_string())
        .collect();
    if !unpinned.is_empty() {
        let what = format!(
            "nothing pinned in {} (no [[expect]] in the spec and no baseline): pin today's values with `krunch check --update {}`",
            unpinned.join(", "),
            unpinned.join(" ")
        );
        if !args.allow_unpinned {
            anyhow::bail!("{what}, or pass --allow-unpinned to pass over them");
        }
        eprintln!("note: {what}; passed over (--allow-unpinned)");
    }
    check::check_tolerances(&targets, options)?;
    let checked = check::check_all(&targets, options);
    // a reader that stops early (`| head`) ends the printing, not the
    // verdict: the exit code still says whether anything moved
    let mut listening = true;
    for (_, o) in &checked.outcomes {
        if args.verbose || !o.passed {
            listening =
                listening && still_read(say(&format!("{}\n", report::describe_outcome(o))))?;
        }
    }
    if listening {
        still_read(say(&format!("{}\n", report::check_summary(&checked))))?;
    }
    if let Some(path) = &args.junit {
        // write_atomic's error names the file already
        report::write_atomic(path, report::junit(&checked.outcomes).as_bytes())?;
    }
    Ok(if checked.failed() == 0 {
        Verdict::Done
    } else {
        Verdict::Moved
    })
}

/// `check --update` for one spec: writes its baseline, or refuses (and
/// says why) while the spec's own `[[expect]]` fail, unless `force`.
/// Returns whether it wrote.
fn update_baseline(
    target: &check::Target,
    options: check::CheckOptions,
    force: bool,
) -> anyhow::Result<bool> {
    let failing = target.own_failures(options);
    if !failing.is_empty() && !force {
        for o in &failing {
            say(&format!("{}\n", report::describe_outcome(o)))?;
        }
        say(&format!(
            "{}: {} of its own [[expect]] fail, so no baseline was written (fix the rule or the expectation, or pass --force)\n",
            target.file.display(),
            failing.len()
        ))?;
        return Ok(false);
    }
    if let Some(dir) = target.baseline.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("{}", dir.display()))?;
    }
    // what the new baseline re-pins: every value of the old one that moved
    // is listed, not replaced in silence
    if target.baseline.exists()
        && let Ok(old) = check::read_baseline(&target.baseline, &target.exp)
    {
        let moved: Vec<_> = check::check(&target.exp, &old, old.len(), options)
            .into_iter()
            .filter(|o| !o.passed)
            .collect();
        for o in &moved {
            say(&format!("re-pinned {}\n", report::describe_outcome(o)))?;
        }
        if !moved.is_empty() {
            say(&format!(
                "{}: {} of {} pinned values moved and are re-pinned to today's\n",
                target.file.display(),
                moved.len(),
                old.len()
            ))?;
        }
    }
    let results = experiment::run(&target.exp, &|_| {});
    report::write_baseline(&target.baseline, &target.exp, &results)?;
    eprintln!(
        "{}: baseline written to {}",
        target.file.display(),
        target.baseline.display()
    );
    Ok(true)
}

fn parse_expression(text: &str) -> anyhow::Result<Expr> {
    systems::named_dice::parse(text).map_err(|e| anyhow::anyhow!("{e}"))
}

/// `krunch prob`: exact distributions, as a table or JSON, and a chart.
/// Every option and expression is checked before anything is printed.
fn prob(args: ProbArgs) -> anyhow::Result<()> {
    if let Some(path) = &args.chart {
        report::check_chart_path(path)?;
    }
    let mut parsed = Vec::new();
    for text in &args.expressions {
        let e = parse_expression(text)?;
        let d = e.exact().map_err(|m| anyhow::anyhow!("{text}: {m}"))?;
        parsed.push((text.as_str(), e, d));
    }
    let items: Vec<report::Named> = parsed
        .iter()
        .map(|(text, e, dist)| report::Named {
            expression: text,
            reading: e.describe(),
            dist,
            comparison: e.is_probability(),
            rolls: e.equally_likely_rolls(),
        })
        .collect();
    let text = match args.format {
        ProbFormat::Table => report::distribution_text(&items),
        ProbFormat::Json => format!("{}\n", report::distribution_json(&items)),
        ProbFormat::Csv => report::distribution_csv(&items),
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    if let Some(path) = &args.chart {
        report::write_distribution_chart(path, &items)?;
    }
    Ok(())
}

/// `krunch roll`: samples of an expression, one a line.
fn roll(args: RollArgs) -> anyhow::Result<()> {
    let (expression, count) = (&args.expression, args.count);
    let e = parse_expression(expression)?;
    anyhow::ensure!(count <= 100_000_000, "-n {count}: at most 100000000 rolls");
    let dice = e.dice_per_sample() * count as f64;
    anyhow::ensure!(
        dice <= krunch::dice::MAX_ROLL_DICE,
        "-n {count}: {expression} throws about {:.1e} dice per roll, {dice:.1e} in all, more than the {:.0e} allowed (about five seconds); ask for fewer rolls",
        e.dice_per_sample(),
        krunch::dice::MAX_ROLL_DICE
    );
    let seed = args.seed.unwrap_or_else(|| {
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

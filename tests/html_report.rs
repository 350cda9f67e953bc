//! `report.html` opened in a real browser (headless Chromium): every chart
//! and table of a run's page and of a comparison's page has a size on
//! screen, and the console stays clean. Skips with a message where no
//! Chromium is installed, except under `CI=true` (`.ci/run` installs it).
//! What needs no browser (self-contained pages, their charts and tables)
//! is checked everywhere, Chromium or not.

#[path = "common/rerun.rs"]
mod rerun;
use std::path::{Path, PathBuf};
use std::process::Command;

fn krunch(args: &[&str]) {
    let o = Command::new(env!("CARGO_BIN_EXE_krunch"))
        .args(args)
        .output()
        .expect("krunch runs");
    assert!(
        o.status.success(),
        "krunch {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("krunch-html-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Records the skip in the file `KRUNCH_SKIP_LOG` names: `make test` lists
/// every skipped test at the end, so none passes as a silent "ok" (the
/// same as the library's seed-text checks do).
fn record_skip(why: &str) {
    let Some(log) = std::env::var_os("KRUNCH_SKIP_LOG") else {
        return;
    };
    let name = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
    {
        use std::io::Write;
        let _ = writeln!(f, "html_report::{name}: {why}");
    }
}

/// The Chromium on PATH, or `None` (a failure under CI, which must have it).
fn chromium() -> Option<&'static str> {
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        let found = Command::new(name)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if found {
            return Some(name);
        }
    }
    let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    assert!(
        !ci,
        "CI=true but no Chromium on PATH: .ci/run installs Debian's `chromium`"
    );
    let why =
        "no Chromium on PATH (apt-get install chromium); report.html is not checked in a browser";
    eprintln!("skipped: {why}");
    record_skip(why);
    None
}

/// Opens `page` headless; returns the DOM after its scripts ran and the
/// console lines the page produced.
fn open(browser: &str, page: &Path, profile: &Path) -> (String, Vec<String>) {
    let o = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(
        o.status.success(),
        "chromium on {}: {}",
        page.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    let console = String::from_utf8_lossy(&o.stderr)
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(ToString::to_string)
        .collect();
    (String::from_utf8_lossy(&o.stdout).into_owned(), console)
}

/// `charts A/B tables C/D` from the page's `data-rendered`, checked whole.
fn assert_rendered(dom: &str, charts: usize, tables: usize, page: &Path) {
    let marker = dom
        .split("data-rendered=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("{}: the page's script never ran", page.display()));
    assert_eq!(
        marker,
        format!("charts {charts}/{charts} tables {tables}/{tables}"),
        "{}",
        page.display()
    );
}

/// A run's page and a comparison's page of the bundled Shoota spec, made
/// in a scratch folder of their own: (folder, run page, compare page).
fn pages(name: &str) -> (PathBuf, PathBuf, PathBuf) {
    let out = scratch(name);
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/shoota_vs_kannon.toml");
    let spec = spec.to_str().unwrap();
    let o = out.to_str().unwrap();
    krunch(&["run", spec, "--trials", "2000", "--quiet", "--out", o]);
    krunch(&[
        "compare",
        spec,
        "--variant",
        "overwatch=original",
        "--trials",
        "2000",
        "--quiet",
        "--out",
        o,
    ]);
    let run_page = out.join("shoota_vs_kannon/report.html");
    let compare_page = out.join("shoota_vs_kannon-compare/report.html");
    (out, run_page, compare_page)
}

/// (charts, tables) a page holds: its `<figure>`s and sortable tables.
fn counts(html: &str) -> (usize, usize) {
    (
        html.matches("<figure>").count(),
        html.matches("<table class=\"sortable\">").count(),
    )
}

/// What can be checked without a browser, so it is checked everywhere:
/// both pages are self-contained (nothing fetched from anywhere), hold
/// their charts and tables, and carry the script that records what it
/// drew (the browser test reads that record).
#[test]
fn report_pages_are_self_contained_with_their_charts_and_tables() {
    let (out, run_page, compare_page) = pages("static");
    for (page, least) in [(&run_page, 3), (&compare_page, 1)] {
        let html = std::fs::read_to_string(page).unwrap();
        for outside in ["src=\"http", "href=\"http", "<link", "@import"] {
            assert!(
                !html.contains(outside),
                "{} loads {outside}",
                page.display()
            );
        }
        let (charts, tables) = counts(&html);
        assert!(
            charts >= least && tables >= least,
            "{}: {charts} charts, {tables} tables",
            page.display()
        );
        assert!(
            html.contains("setAttribute('data-rendered'"),
            "{}: no rendering record",
            page.display()
        );
        assert!(html.trim_end().ends_with("</html>"), "{}", page.display());
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn report_pages_render_in_a_browser() {
    let Some(browser) = chromium() else {
        return;
    };
    let (out, run_page, compare_page) = pages("browser");
    let (charts, tables) = counts(&std::fs::read_to_string(&run_page).unwrap());
    let (dom, console) = open(browser, &run_page, &out.join("profile-run"));
    assert_rendered(&dom, charts, tables, &run_page);
    assert!(console.is_empty(), "console: {console:?}");

    let (dom, console) = open(browser, &compare_page, &out.join("profile-compare"));
    assert_rendered(&dom, 1, 1, &compare_page);
    assert!(console.is_empty(), "console: {console:?}");
    let _ = std::fs::remove_dir_all(&out);
}

/// With no Chromium on PATH the browser test skips, says so and is listed
/// by `make test`; under `CI=true` (`.ci/run` exports it) it fails
/// instead. Runs the browser test of this binary alone, PATH emptied.
#[test]
fn without_chromium_the_browser_test_skips_and_fails_under_ci() {
    let name = "report_pages_render_in_a_browser";
    let run = |ci: Option<&str>| {
        let dir = std::env::temp_dir().join(format!(
            "krunch-html-{}-nochromium-{}",
            std::process::id(),
            ci.unwrap_or("none")
        ));
        // PATH is the empty scratch folder: no Chromium on it
        rerun::rerun_alone(name, &dir, &[("PATH", &dir)], ci)
    };
    let (ok, out, skipped) = run(None);
    assert!(ok, "{out}");
    assert!(out.contains("1 passed"), "the test ran: {out}");
    assert!(out.contains("skipped: no Chromium on PATH"), "{out}");
    assert!(
        skipped.starts_with(&format!("html_report::{name}: no Chromium on PATH")),
        "{skipped}"
    );
    for ci in ["true", "1"] {
        let (ok, out, _) = run(Some(ci));
        assert!(!ok, "CI={ci} passed without Chromium: {out}");
        assert!(out.contains("CI=true but no Chromium on PATH"), "{out}");
    }
}

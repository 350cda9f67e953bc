//! `report.html` opened in a real browser (headless Chromium): every chart
//! and table of a run's page and of a comparison's page has a size on
//! screen, and the console stays clean. Skips with a message where no
//! Chromium is installed, except under `CI=true` (`.ci/run` installs it).

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
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
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

#[test]
fn report_pages_render_in_a_browser() {
    let Some(browser) = chromium() else {
        return;
    };
    let out = scratch("reports");
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
    let html = std::fs::read_to_string(&run_page).unwrap();
    // self-contained: nothing fetched from anywhere
    for outside in ["src=\"http", "href=\"http", "<link", "@import"] {
        assert!(!html.contains(outside), "report.html loads {outside}");
    }
    let charts = html.matches("<figure>").count();
    let tables = html.matches("<table class=\"sortable\">").count();
    assert!(
        charts >= 3 && tables >= 3,
        "{charts} charts, {tables} tables"
    );
    let (dom, console) = open(browser, &run_page, &out.join("profile-run"));
    assert_rendered(&dom, charts, tables, &run_page);
    assert!(console.is_empty(), "console: {console:?}");

    let compare_page = out.join("shoota_vs_kannon-compare/report.html");
    let (dom, console) = open(browser, &compare_page, &out.join("profile-compare"));
    assert_rendered(&dom, 1, 1, &compare_page);
    assert!(console.is_empty(), "console: {console:?}");
    let _ = std::fs::remove_dir_all(&out);
}

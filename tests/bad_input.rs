//! The bad-input catalogue (issue 15): every case is a spec, baseline,
//! expression or command line that must be refused with exit code 2 and a
//! message naming the file, line and field (or the option) at fault. None
//! may crash (134) or panic (101), and none may run to an empty or wrong
//! result.

use std::path::PathBuf;
use std::process::Command;

/// The valid spec every spec case mutates; line numbers below refer to it.
const TEMPLATE: &str = r#"name = "cat"
title = "Catalogue"
system = "gce"
scenario = "shooting"
trials = 2000
seed = 1
metrics = ["p_hit", "p_out_of_action"]

[variants]
overwatch = "current"

[base]
bs = 3
toughness = 3
wounds = 1
save = 0
target_ws = 3
target_bs = 3

[[profile]]
name = "Shoota"
weapon = "shoota"

[sweep]
range = [3, 6]

[[chart]]
kind = "line"
metric = "p_hit"
x = "range"

[[expect]]
metric = "p_hit"
cell = { range = 3 }
value = 0.5
tolerance = 0.5
"#;

/// The template with line `n` (1-based) replaced by `text` (which may hold
/// several lines, or none).
fn with(n: usize, text: &str) -> String {
    replace_line(TEMPLATE, n, text)
}

fn replace_line(template: &str, n: usize, text: &str) -> String {
    let mut lines: Vec<String> = template.lines().map(String::from).collect();
    lines[n - 1] = text.to_string();
    lines.join("\n") + "\n"
}

/// A valid hand-to-hand spec (another scenario than the template's).
const MELEE: &str = r#"name = "cat"
title = "Hand-to-hand catalogue"
system = "gce"
scenario = "hand_to_hand"
trials = 2000
seed = 1

[base]
a_ws = 3
a_bs = 3
a_attacks = 1
a_initiative = 3
a_strength = 3
a_toughness = 3
a_wounds = 1
a_weapons = "choppa"
b_ws = 3
b_bs = 3
b_attacks = 1
b_initiative = 3
b_strength = 3
b_toughness = 3
b_wounds = 1

[[profile]]
name = "duel"
"#;

/// One bad input: files to write into a scratch folder (`cat.toml` is the
/// spec unless a case says otherwise), the command line (`{dir}` is the
/// scratch folder), and what the message must contain.
struct Case {
    what: &'static str,
    files: Vec<(&'static str, String)>,
    args: Vec<String>,
    code: i32,
    must: Vec<String>,
}

fn spec_case(what: &'static str, text: String, must: &[&str]) -> Case {
    Case {
        what,
        files: vec![("cat.toml", text)],
        args: vec![
            "run".into(),
            "{dir}/cat.toml".into(),
            "--quiet".into(),
            "--out".into(),
            "{dir}/out".into(),
        ],
        code: 2,
        must: must.iter().map(|s| s.to_string()).collect(),
    }
}

fn cmd_case(what: &'static str, args: &[&str], must: &[&str]) -> Case {
    Case {
        what,
        files: vec![("cat.toml", TEMPLATE.to_string())],
        args: args.iter().map(|s| s.to_string()).collect(),
        code: 2,
        must: must.iter().map(|s| s.to_string()).collect(),
    }
}

fn prob_case(expr: &str, must: &[&str]) -> Case {
    Case {
        what: "expression",
        files: vec![],
        args: vec!["prob".into(), "--".into(), expr.into()],
        code: 2,
        must: must.iter().map(|s| s.to_string()).collect(),
    }
}

fn roll_case(expr: &str, extra: &[&str], must: &[&str]) -> Case {
    let mut args = vec![
        "roll".to_string(),
        expr.to_string(),
        "--seed".into(),
        "1".into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    Case {
        what: "roll",
        files: vec![],
        args,
        code: 2,
        must: must.iter().map(|s| s.to_string()).collect(),
    }
}

/// A baseline for the template (checked with `krunch check {dir}/cat.toml`).
fn baseline_case(what: &'static str, entry: &str, must: &[&str]) -> Case {
    Case {
        what,
        files: vec![
            ("cat.toml", TEMPLATE.to_string()),
            ("baselines/cat.toml", format!("# a baseline\n{entry}\n")),
        ],
        args: vec!["check".into(), "{dir}/cat.toml".into()],
        code: 2,
        must: must.iter().map(|s| s.to_string()).collect(),
    }
}

const GOOD_ENTRY: &str = "[[expect]]\nprofile = \"Shoota\"\ncell = { range = 3 }\nmetric = \"p_hit\"\nvalue = 0.5\nstd_error = 0.0";

fn baseline_with(field: &str, value: &str) -> String {
    GOOD_ENTRY
        .lines()
        .map(|l| {
            if l.starts_with(&format!("{field} =")) {
                format!("{field} = {value}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A BFG hit-and-run spec: `base`, `sweep` and `profile` lines added to a
/// base with the damage a teleport attack needs.
fn bfg(base: &str, sweep: &str, profile: &str) -> String {
    let mut s = String::from(
        "name = \"cat\"\ntitle = \"BFG catalogue\"\nsystem = \"bfg\"\nscenario = \"hit_and_run\"\ntrials = 2000\nseed = 1\n\n[base]\nattacker_damage = 8\ntarget_damage = 6\n",
    );
    for line in base.lines() {
        s.push_str(line);
        s.push('\n');
    }
    if !sweep.is_empty() {
        s.push_str("\n[sweep]\n");
        s.push_str(sweep);
        s.push('\n');
    }
    s.push_str("\n[[profile]]\nname = \"one\"\n");
    for line in profile.lines() {
        s.push_str(line);
        s.push('\n');
    }
    s
}

const ONE_TELEPORT: &str = "only make one teleport attack each turn";

fn bfg_teleport_cases() -> Vec<Case> {
    let with_args = |what: &'static str, text: String, args: &[&str], must: &[&str]| Case {
        what,
        files: vec![("cat.toml", text)],
        args: args.iter().map(|s| s.to_string()).collect(),
        code: 2,
        must: must.iter().map(|s| s.to_string()).collect(),
    };
    vec![
        spec_case(
            "BFG: two teleport attacks from one ship in a turn",
            bfg("attack = \"teleport\"\nattacks = 2", "", ""),
            &[
                "cat.toml:12: base.attacks:",
                "2 teleport attacks",
                ONE_TELEPORT,
            ],
        ),
        spec_case(
            "BFG: a profile's two teleport attacks",
            bfg("attack = \"teleport\"", "", "attacks = 2"),
            &[
                "cat.toml:15: profile[0].attacks:",
                ONE_TELEPORT,
                "profile 'one'",
            ],
        ),
        spec_case(
            "BFG: teleport attacks swept past one",
            bfg("attack = \"teleport\"", "attacks = [1, 3]", ""),
            &[
                "cat.toml:14: sweep.attacks:",
                "3 teleport attacks",
                ONE_TELEPORT,
                "at attacks=3",
            ],
        ),
        spec_case(
            "BFG: the attack swept to teleport beside a profile's two attacks",
            bfg(
                "",
                "attack = [\"assault_boat\", \"teleport\"]",
                "attacks = 2",
            ),
            &[
                "cat.toml:17: profile[0].attacks:",
                ONE_TELEPORT,
                "at attack=teleport",
            ],
        ),
        spec_case(
            "BFG: the attack and the count both swept",
            bfg(
                "",
                "attack = [\"assault_boat\", \"teleport\"]\nattacks = [1, 2]",
                "",
            ),
            &[
                "cat.toml:14: sweep.attacks:",
                ONE_TELEPORT,
                "at attack=teleport, attacks=2",
            ],
        ),
        with_args(
            "BFG: two teleport attacks checked",
            bfg("attack = \"teleport\"", "", "attacks = 2"),
            &["check", "{dir}/cat.toml"],
            &["cat.toml:15: profile[0].attacks:", ONE_TELEPORT],
        ),
        with_args(
            "BFG: two teleport attacks as a compare override",
            bfg("attack = \"teleport\"", "", ""),
            &[
                "compare",
                "{dir}/cat.toml",
                "--variant",
                "attacks=2",
                "--quiet",
                "--out",
                "{dir}/out",
            ],
            &["cat.toml: --variant attacks:", ONE_TELEPORT],
        ),
    ]
}

/// A valid GCE volley: Boyz and a Nob at a target (line numbers below
/// refer to it).
const VOLLEY: &str = r#"name = "cat"
system = "gce"
scenario = "volley"
trials = 2000
seed = 1

[base]
toughness = 4
wounds = 1
target_ws = 4
target_bs = 4

[[attacker]]
name = "boyz"
count = 2
weapon = "shoota"
bs = 3
range = 8

[[attacker]]
name = "nob"
weapon = "slugga"
bs = 4
range = 8

[[profile]]
name = "one"

[sweep]
boyz.count = [1, 2]
"#;

/// Issue 26's volley refusals, each at its line: two attackers with one
/// name, an attacker without a name, a count of 0, a target's parameter on
/// an attacker, an attacker's parameter in [base], an attacker misspelt in
/// a sweep and in a profile, an attacker without a weapon, [[attacker]]
/// entries for a one-shooter scenario, and `attackers` written by hand.
fn volley_cases() -> Vec<Case> {
    let v = |n: usize, text: &str| replace_line(VOLLEY, n, text);
    vec![
        spec_case(
            "two attackers with one name",
            v(21, "name = \"boyz\""),
            &["cat.toml:21:", "attacker[1].name", "named twice"],
        ),
        spec_case(
            "an attacker without a name",
            v(21, ""),
            &["cat.toml:", "attacker[1].name", "missing: set name"],
        ),
        spec_case(
            "an attacker's count of 0",
            v(24, "range = 8\ncount = 0"),
            &["cat.toml:25:", "nob.count", "must be from 1 to 20"],
        ),
        spec_case(
            "the target's Toughness on an attacker",
            v(24, "range = 8\ntoughness = 3"),
            &["cat.toml:25:", "nob.toughness", "the target's"],
        ),
        spec_case(
            "an attacker's BS in [base]",
            v(11, "target_bs = 4\nbs = 3"),
            &["cat.toml:12:", "base.bs", "[[attacker]]"],
        ),
        spec_case(
            "a misspelt attacker in a sweep",
            v(30, "boys.count = [1, 2]"),
            &["cat.toml:30:", "boys.count", "did you mean 'boyz'"],
        ),
        spec_case(
            "a misspelt attacker in a profile",
            v(27, "name = \"one\"\nnbo.bs = 3"),
            &["cat.toml:28:", "nbo.bs", "did you mean 'nob'"],
        ),
        spec_case(
            "an attacker without a weapon",
            v(22, ""),
            &["nob.strength", "nob.damage", "nob.ammo"],
        ),
        spec_case(
            "attackers for a one-shooter scenario",
            v(3, "scenario = \"shooting\""),
            &["cat.toml:", "attacker[0]", "volley scenario"],
        ),
        spec_case(
            "a volley without attackers",
            VOLLEY.split("\n[[attacker]]").next().unwrap().to_string()
                + "\n[[profile]]\nname = \"one\"\n",
            &["cat.toml:", "attackers", "[[attacker]] entry each"],
        ),
        spec_case(
            "an attacker's value in [base] and in its entry",
            v(11, "target_bs = 4\nboyz.bs = 4"),
            &["cat.toml:18:", "boyz.bs", "given in [base] too"],
        ),
        spec_case(
            "the same dotted key in two tables, each at its own line",
            v(
                27,
                "name = \"one\"\nnob.bs = 3\n\n[[profile]]\nname = \"two\"\nnob.bss = 3",
            ),
            &["cat.toml:32:", "nob.bss", "did you mean 'bs'"],
        ),
        spec_case(
            "the attackers swept",
            v(30, "boyz.count = [1, 2]\nattackers = [\"boyz\", \"nob\"]"),
            &["cat.toml:31:", "sweep.attackers", "[[attacker]] entries"],
        ),
        spec_case(
            "more shots than a volley counts",
            v(15, "count = 20\nfire_mode = \"full_auto\"\nsf_dice = 6")
                .replace("boyz.count = [1, 2]", "nob.bs = [3, 4]"),
            &["cat.toml:", "boyz.count", "more than the 250"],
        ),
        spec_case(
            "a weapon that sets the target alight, turn after turn",
            v(3, "scenario = \"turns_to_kill\"")
                .replace("weapon = \"slugga\"", "weapon = \"slugga\"\ncatch_fire = 4"),
            &["cat.toml:", "nob.catch_fire", "Warriors on Fire"],
        ),
        spec_case(
            "the attackers listed by hand",
            v(11, "target_bs = 4\nattackers = \"boyz,nob\""),
            &["cat.toml:12:", "base.attackers", "[[attacker]] entries"],
        ),
    ]
}

fn catalogue() -> Vec<Case> {
    let mut c = vec![
        // --- specs: the name (item 1) ---
        spec_case(
            "empty name",
            with(1, "name = \"\""),
            &["cat.toml:1: name:", "empty"],
        ),
        spec_case("dot name", with(1, "name = \".\""), &["cat.toml:1: name:"]),
        spec_case(
            "dot-dot name",
            with(1, "name = \"..\""),
            &["cat.toml:1: name:"],
        ),
        spec_case(
            "climbing name",
            with(1, "name = \"a/../..\""),
            &["cat.toml:1: name:"],
        ),
        spec_case(
            "absolute name",
            with(1, "name = \"/tmp\""),
            &["cat.toml:1: name:"],
        ),
        spec_case(
            "name on line 3",
            with(1, "\n\nname = \"\""),
            &["cat.toml:3: name:"],
        ),
        spec_case(
            "long name",
            with(1, &format!("name = \"{}\"", "a".repeat(300))),
            &["cat.toml:1: name:", "300 bytes"],
        ),
        spec_case(
            "name with space",
            with(1, "name = \"a b\""),
            &["cat.toml:1: name:"],
        ),
        spec_case(
            "name not a string",
            with(1, "name = 3"),
            &["cat.toml:1: name:"],
        ),
        // --- specs: TOML-level errors name the key ---
        spec_case(
            "duplicate key",
            with(13, "bs = 3\nbs = 4"),
            &["cat.toml:14: base.bs:", "duplicate"],
        ),
        spec_case(
            "duplicate top-level key",
            with(5, "trials = 2000\ntrials = 3000"),
            &["cat.toml:6: trials:"],
        ),
        spec_case(
            "bad value syntax",
            with(14, "toughness = = 3"),
            &["cat.toml:14: base.toughness:"],
        ),
        spec_case(
            "unclosed string",
            with(2, "title = \"Catalogue"),
            &["cat.toml:2: title:"],
        ),
        spec_case(
            "unclosed table header",
            with(12, "[base"),
            &["cat.toml:12: base:"],
        ),
        spec_case(
            "trials a string",
            with(5, "trials = \"many\""),
            &["cat.toml:5: trials:"],
        ),
        spec_case(
            "trials a float",
            with(5, "trials = 2.5"),
            &["cat.toml:5: trials:"],
        ),
        spec_case(
            "seed negative",
            with(6, "seed = -1"),
            &["cat.toml:6: seed:"],
        ),
        spec_case(
            "unknown top-level key",
            with(6, "seed = 1\nsead = 2"),
            &["cat.toml:7: sead:", "unknown field"],
        ),
        spec_case(
            "missing system",
            with(3, ""),
            &["cat.toml", "system", "missing"],
        ),
        spec_case("missing trials", with(5, ""), &["trials", "missing"]),
        spec_case(
            "metrics not a list",
            with(7, "metrics = \"p_hit\""),
            &["cat.toml:7: metrics:"],
        ),
        spec_case(
            "profile not a list of tables",
            with(20, "[profile]"),
            &["cat.toml:20: profile:"],
        ),
        spec_case(
            "expect value a string",
            with(35, "value = \"half\""),
            &["cat.toml:35: expect[0].value:"],
        ),
        spec_case(
            "chart unknown key",
            with(30, "x = \"range\"\ncolour = \"red\""),
            &["cat.toml:", "colour"],
        ),
        // --- specs: values ---
        spec_case(
            "trials zero",
            with(5, "trials = 0"),
            &["cat.toml:5: trials:"],
        ),
        spec_case(
            "trials negative",
            with(5, "trials = -5"),
            &["cat.toml:5: trials:"],
        ),
        spec_case(
            "trials huge",
            with(5, "trials = 9223372036854775807"),
            &["cat.toml:5: trials:"],
        ),
        spec_case(
            "confidence too high",
            with(6, "seed = 1\nconfidence = 1.5"),
            &["cat.toml:7: confidence:"],
        ),
        spec_case(
            "confidence nan",
            with(6, "seed = 1\nconfidence = nan"),
            &["cat.toml:7: confidence:"],
        ),
        spec_case(
            "unknown system",
            with(3, "system = \"gorka\""),
            &["cat.toml:3: system:"],
        ),
        spec_case(
            "unknown scenario",
            with(4, "scenario = \"shootin\""),
            &["cat.toml:4: scenario:"],
        ),
        spec_case(
            "unknown variant",
            with(10, "overwach = \"current\""),
            &["cat.toml:10: variants.overwach:"],
        ),
        spec_case(
            "bad variant value",
            with(10, "overwatch = \"newest\""),
            &["cat.toml:10: variants.overwatch:"],
        ),
        spec_case(
            "typo in base",
            with(14, "toughnes = 3"),
            &["cat.toml:14: base.toughnes:", "did you mean 'toughness'"],
        ),
        spec_case(
            "typo in profile",
            with(22, "weapon = \"shoota\"\nstrenght = 4"),
            &["cat.toml:23: profile[0].strenght:", "did you mean"],
        ),
        spec_case(
            "bs out of range",
            with(13, "bs = 99"),
            &["cat.toml:13: base.bs:"],
        ),
        spec_case(
            "bs a word",
            with(13, "bs = \"three\""),
            &["cat.toml:13: base.bs:"],
        ),
        spec_case(
            "bs a table",
            with(13, "bs = { a = 1 }"),
            &["cat.toml:13: base.bs:"],
        ),
        spec_case(
            "unknown weapon",
            with(22, "weapon = \"shotta\""),
            &["cat.toml:22: profile[0].weapon:", "shoota"],
        ),
        spec_case(
            "missing wounds",
            with(15, ""),
            &["cat.toml", "wounds", "missing"],
        ),
        spec_case(
            "metrics empty",
            with(7, "metrics = []"),
            &["cat.toml:7: metrics:", "empty"],
        ),
        spec_case(
            "unknown metric",
            with(7, "metrics = [\"p_hitt\"]"),
            &["cat.toml:7: metrics:", "p_hitt"],
        ),
        spec_case(
            "no profile",
            with(20, "")
                .replace("name = \"Shoota\"\nweapon = \"shoota\"", "")
                .replace("[base]", "[base]\nweapon = \"shoota\""),
            &["cat.toml", "profile"],
        ),
        spec_case(
            "duplicate profile names",
            with(
                22,
                "weapon = \"shoota\"\n\n[[profile]]\nname = \"Shoota\"\nweapon = \"slugga\"",
            ),
            &["cat.toml:25: profile[1].name:", "twice"],
        ),
        spec_case(
            "empty profile name",
            with(21, "name = \"\""),
            &["cat.toml:21: profile[0].name:"],
        ),
        spec_case(
            "long profile name",
            with(21, &format!("name = \"{}\"", "p".repeat(200))),
            &["cat.toml:21: profile[0].name:"],
        ),
        spec_case(
            "profile variants not a table",
            with(22, "weapon = \"shoota\"\nvariants = 3"),
            &["cat.toml:23: profile[0].variants:"],
        ),
        spec_case(
            "profile variant unknown",
            with(
                22,
                "weapon = \"shoota\"\nvariants = { overwach = \"current\" }",
            ),
            &["cat.toml:23: profile[0].variants.overwach:"],
        ),
        spec_case(
            "sweep empty axis",
            with(25, "range = []"),
            &["cat.toml:25: sweep.range:"],
        ),
        spec_case(
            "sweep not a list",
            with(25, "range = 3"),
            &["cat.toml:25: sweep.range:"],
        ),
        spec_case(
            "sweep unknown axis",
            with(25, "range = [3, 6]\nrnage = [1, 2]"),
            &["cat.toml:26: sweep.rnage:", "did you mean 'range'"],
        ),
        spec_case(
            "sweep bad value",
            with(25, "range = [3, -6]"),
            &["cat.toml:25: sweep.range:"],
        ),
        spec_case(
            "sweep nested list",
            with(25, "range = [[3], [6]]"),
            &["cat.toml:25: sweep.range:"],
        ),
        spec_case(
            "sweep 64 axes of two values",
            with(
                25,
                &(0..64)
                    .map(|i| format!("a{i} = [1, 2]"))
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            &["cat.toml:25: sweep:", "allowed"],
        ),
        spec_case(
            "sweep too many cells",
            with(
                25,
                "range = [3, 6]\ntoughness = [1,2,3,4,5,6,7,8,9,10]\nwounds = [1,2,3,4,5,6,7,8,9,10]\nsave = [0,2,3,4,5,6]\nbs = [1,2,3,4,5,6,7,8,9,10]\ntarget_ws = [1,2,3,4,5,6,7,8,9,10]",
            ),
            &["cat.toml:25: sweep:", "cells"],
        ),
        spec_case(
            "sweep cells x profiles too many",
            with(
                22,
                &format!(
                    "weapon = \"shoota\"{}",
                    (1..=40)
                        .map(|i| format!("\n[[profile]]\nname = \"p{i}\"\nweapon = \"shoota\""))
                        .collect::<String>()
                ),
            )
            .replace(
                "range = [3, 6]",
                &format!(
                    "range = [{}]",
                    (1..=3000)
                        .map(|i: i32| i.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ),
            &["sweep:", "models"],
        ),
        spec_case(
            "chart unknown kind",
            with(28, "kind = \"pie\""),
            &["cat.toml:27: chart.kind:"],
        ),
        spec_case(
            "chart unknown metric",
            with(29, "metric = \"p_wounded\""),
            &["cat.toml:27: chart.metric:"],
        ),
        spec_case(
            "chart unknown axis",
            with(30, "x = \"toughness\""),
            &["cat.toml:27: chart.x:"],
        ),
        spec_case(
            "chart missing axis",
            with(30, ""),
            &["cat.toml:27: chart.x:"],
        ),
        spec_case(
            "heatmap unknown profile",
            with(
                28,
                "kind = \"heatmap\"\ny = \"range\"\nprofile = \"Nobody\"",
            ),
            &["cat.toml:27: chart.profile:"],
        ),
        spec_case(
            "distribution chart of a metric that is no family, none listed",
            replace_line(&with(30, ""), 28, "kind = \"distribution\""),
            &[
                "cat.toml:27: chart.metric:",
                "'p_hit' is not a distribution family",
                "the spec's metrics list none",
            ],
        ),
        spec_case(
            "distribution chart of a metric that is no family",
            replace_line(
                &replace_line(&with(30, ""), 28, "kind = \"distribution\""),
                7,
                "metrics = [\"p_hit\", \"hits=0\", \"hits=1\"]",
            ),
            &[
                "cat.toml:27: chart.metric:",
                "'p_hit' is not a distribution family",
                "one of hits={k}",
            ],
        ),
        spec_case(
            "distribution chart with an x axis",
            replace_line(
                &with(28, "kind = \"distribution\""),
                7,
                "metrics = [\"p_hit\", \"hits=0\", \"hits=1\"]",
            ),
            &["cat.toml:27: chart.x:", "takes no `x`"],
        ),
        spec_case(
            "expect unknown metric",
            with(33, "metric = \"p_hitt\""),
            &["cat.toml:32: expect.metric:"],
        ),
        spec_case(
            "expect unknown profile",
            with(33, "metric = \"p_hit\"\nprofile = \"Slugga\""),
            &["cat.toml:32: expect.profile:"],
        ),
        spec_case(
            "expect cell not on sweep",
            with(34, "cell = { range = 4 }"),
            &["cat.toml:32: expect.cell:"],
        ),
        spec_case(
            "expect cell unknown axis",
            with(34, "cell = { rang = 3 }"),
            &["cat.toml:32: expect.cell:"],
        ),
        spec_case(
            "expect cell missing axis",
            with(34, ""),
            &["cat.toml:32: expect.cell:"],
        ),
        spec_case(
            "expect probability -1",
            with(35, "value = -1.0"),
            &["cat.toml:32: expect.value:", "probability"],
        ),
        spec_case(
            "expect probability 1e9",
            with(35, "value = 1e9"),
            &["cat.toml:32: expect.value:", "probability"],
        ),
        spec_case(
            "expect value nan",
            with(35, "value = nan"),
            &["cat.toml:32: expect.value:"],
        ),
        spec_case(
            "expect value inf",
            with(35, "value = inf"),
            &["cat.toml:32: expect.value:"],
        ),
        spec_case(
            "expect tolerance negative",
            with(36, "tolerance = -0.1"),
            &["cat.toml:32: expect.tolerance:"],
        ),
        spec_case(
            "expect tolerance nan",
            with(36, "tolerance = nan"),
            &["cat.toml:32: expect.tolerance:"],
        ),
        spec_case(
            "expect quantile of no family",
            with(33, "metric = \"median(hit)\""),
            &[
                "cat.toml:32: expect.metric:",
                "names no distribution family 'hit' (did you mean 'hits'?)",
                "its families: 'hits', 'wounds'",
            ],
        ),
        spec_case(
            "expect quantile of a plain metric",
            with(33, "metric = \"p90(p_hit)\""),
            &[
                "cat.toml:32: expect.metric:",
                "no distribution family 'p_hit'",
            ],
        ),
        spec_case(
            "expect quantile with a tolerance",
            with(33, "metric = \"median(hits)\""),
            &["cat.toml:32: expect.tolerance:", "takes no tolerance"],
        ),
        spec_case(
            "expect quantile not a whole number",
            replace_line(&with(33, "metric = \"median(hits)\""), 36, ""),
            &[
                "cat.toml:32: expect.value:",
                "0.5 is not a value 'hits' takes here",
                "the median hits is a whole number from 0 to",
            ],
        ),
        spec_case(
            "expect unknown key",
            with(36, "tolerance = 0.5\ntolerence = 0.5"),
            &["cat.toml:37:", "tolerence"],
        ),
        spec_case(
            "NUL byte",
            "name = \"cat\"\n\u{0}"
                .to_string()
                .replace('\u{0}', "\u{FFFD}")
                + "\u{0}",
            &["cat.toml"],
        ),
        spec_case("empty file", String::new(), &["cat.toml", "missing"]),
        spec_case(
            "binary garbage",
            "\u{1}\u{2}\u{3}[[[".to_string(),
            &["cat.toml:1:"],
        ),
        spec_case(
            "variants not a table",
            with(9, "variants = 3").replace("overwatch = \"current\"\n", ""),
            &["cat.toml:9: variants:"],
        ),
        spec_case(
            "base not a table",
            with(12, "[[base]]"),
            &["cat.toml:12: base[0]:"],
        ),
        spec_case(
            "title a number",
            with(2, "title = 3"),
            &["cat.toml:2: title:"],
        ),
    ];
    c.push(spec_case(
        "key without a value",
        with(13, "bs"),
        &["cat.toml:13: base.bs:"],
    ));
    c.push(spec_case(
        "broken comment",
        with(8, "# a comment \u{7}"),
        &["cat.toml:8: comment:"],
    ));
    // Files that are not specs at all
    c.push(Case {
        what: "missing spec file",
        files: vec![],
        args: vec![
            "run".into(),
            "{dir}/nothing.toml".into(),
            "--out".into(),
            "{dir}/out".into(),
        ],
        code: 2,
        must: vec!["nothing.toml: file:".into()],
    });
    c.push(Case {
        what: "a folder as a spec",
        files: vec![("sub/x.txt", String::new())],
        args: vec![
            "run".into(),
            "{dir}/sub".into(),
            "--out".into(),
            "{dir}/out".into(),
        ],
        code: 2,
        must: vec!["sub: file:".into()],
    });
    c.push(Case {
        what: "an endless file",
        files: vec![],
        args: vec![
            "run".into(),
            "/dev/zero".into(),
            "--out".into(),
            "{dir}/out".into(),
        ],
        code: 2,
        must: vec!["/dev/zero: file:".into(), "bytes allowed".into()],
    });
    c.push(Case {
        what: "two specs with one name",
        files: vec![
            ("cat.toml", TEMPLATE.into()),
            ("cat2.toml", TEMPLATE.into()),
        ],
        args: vec![
            "run".into(),
            "{dir}/cat.toml".into(),
            "{dir}/cat2.toml".into(),
            "--quiet".into(),
            "--out".into(),
            "{dir}/out".into(),
        ],
        code: 2,
        must: vec!["cat2.toml: name:".into(), "cat.toml".into()],
    });
    c.push(Case {
        what: "--out is a file",
        files: vec![("cat.toml", TEMPLATE.into()), ("afile", "x".into())],
        args: vec![
            "run".into(),
            "{dir}/cat.toml".into(),
            "--quiet".into(),
            "--out".into(),
            "{dir}/afile".into(),
        ],
        code: 2,
        must: vec!["--out".into(), "afile".into()],
    });

    // --- baselines ---
    c.push(baseline_case(
        "baseline std_error 1e300",
        &baseline_with("std_error", "1e300"),
        &["baselines/cat.toml:2: expect.std_error:"],
    ));
    c.push(baseline_case(
        "baseline std_error inf",
        &baseline_with("std_error", "inf"),
        &["baselines/cat.toml:2: expect.std_error:"],
    ));
    c.push(baseline_case(
        "baseline std_error nan",
        &baseline_with("std_error", "nan"),
        &["baselines/cat.toml:2: expect.std_error:"],
    ));
    c.push(baseline_case(
        "baseline std_error negative",
        &baseline_with("std_error", "-0.1"),
        &["baselines/cat.toml:2: expect.std_error:"],
    ));
    c.push(baseline_case(
        "baseline std_error 0.4",
        &baseline_with("std_error", "0.4"),
        &["baselines/cat.toml:2: expect.std_error:", "2000 trials"],
    ));
    c.push(baseline_case(
        "baseline value 2",
        &baseline_with("value", "2.0"),
        &["baselines/cat.toml:2: expect.value:", "probability"],
    ));
    c.push(baseline_case(
        "baseline value nan",
        &baseline_with("value", "nan"),
        &["baselines/cat.toml:2: expect.value:"],
    ));
    c.push(baseline_case(
        "baseline value a string",
        &baseline_with("value", "\"half\""),
        &["baselines/cat.toml:6: expect[0].value:"],
    ));
    c.push(baseline_case(
        "baseline unknown metric",
        &baseline_with("metric", "\"p_hitt\""),
        &["baselines/cat.toml:2: expect.metric:"],
    ));
    c.push(baseline_case(
        "baseline unknown profile",
        &baseline_with("profile", "\"Slugga\""),
        &["baselines/cat.toml:2: expect.profile:"],
    ));
    c.push(baseline_case(
        "baseline cell off the sweep",
        &baseline_with("cell", "{ range = 4 }"),
        &["baselines/cat.toml:2: expect.cell:"],
    ));
    c.push(baseline_case(
        "baseline missing std_error",
        &GOOD_ENTRY.replace("\nstd_error = 0.0", ""),
        &["baselines/cat.toml:", "std_error"],
    ));
    c.push(baseline_case(
        "baseline unknown key",
        &format!("{GOOD_ENTRY}\nsdt_error = 1"),
        &["baselines/cat.toml:", "sdt_error"],
    ));
    c.push(baseline_case(
        "baseline duplicate key",
        &format!("{GOOD_ENTRY}\nvalue = 0.5"),
        &["baselines/cat.toml:8: expect[0].value:", "duplicate"],
    ));
    c.push(baseline_case(
        "baseline garbage",
        "[[expect]\nx",
        &["baselines/cat.toml:2: expect[0]:"],
    ));

    // --- expressions ---
    for (e, must) in [
        ("", "empty"),
        ("2d", "sides"),
        ("2d6+", "ended"),
        ("(2d6", "never closed"),
        ("4d6k5", "cannot keep"),
        ("d0", "at least one side"),
        ("2d6 $ 3", "unexpected '$'"),
        ("1000000d6", "1 to 1000"),
        ("d6<3<4", "chained"),
        ("d6x", "unexpected 'x'"),
        ("2d6x+3", "unexpected 'x'"),
        ("9223372036854775807+1", "64-bit"),
        ("d6 < 9223372036854775807+d2", "64-bit"),
        ("-9223372036854775807-2", "64-bit"),
        ("3037000500*3037000500", "64-bit"),
        ("99999999999999999999", "allowed"),
        ("d{0,1000000}!100", "outcomes"),
        ("1000d10000*1000d10000", "outcomes"),
        ("1000d6k999", "steps"),
        ("d6!101", "100 allowed"),
        ("d{}", "a face value"),
        ("d{1,2", "','"),
        ("d{1}!", "cannot explode"),
        ("4d6k0", "cannot keep 0"),
        ("d6r1r2", "only one reroll"),
        ("d6!!", "only one '!'"),
        (")", "unexpected ')'"),
        ("d6 >= ", "ended"),
    ] {
        // a malformed expression points at a character; one too large to
        // evaluate names the expression and the limit
        let place = if ["outcomes", "steps"].contains(&must) {
            e
        } else {
            "at character"
        };
        c.push(prob_case(e, &[must, place]));
    }
    // a wide die exploding many times is refused by its own estimate
    // before the explosion is built (5.2e9: 101 explosion steps over a
    // million entries at 50 a merge), not after 4.8 s of building by the
    // sum's (3.2e11)
    c.push(prob_case("d10000!100", &["5.2e9 steps", "d10000!100"]));
    let deep = format!("{}1{}", "(".repeat(5400), ")".repeat(5400));
    c.push(prob_case(&deep, &["nested", "at character 101"]));
    c.push(prob_case(&format!("{}1", "-".repeat(20_900)), &["nested"]));
    c.push(prob_case(&vec!["1"; 20_860].join("+"), &["operators"]));
    c.push(cmd_case(
        "prob --chart with a kind it cannot draw",
        &["prob", "3d6", "--chart", "{dir}/x.jpg"],
        &["--chart x.jpg", ".svg or .png"],
    ));
    c.push(cmd_case(
        "prob --chart into a missing folder",
        &["prob", "3d6", "--chart", "{dir}/nowhere/x.png"],
        &["--chart nowhere/x.png", "no folder"],
    ));
    c.push(roll_case(&deep, &[], &["nested"]));
    c.push(roll_case("9223372036854775807+1", &[], &["64-bit"]));
    c.push(roll_case(
        "1000d10000!100",
        &["-n", "100000000"],
        &["-n 100000000", "dice", "allowed"],
    ));
    c.push(roll_case("d6", &["-n", "100000001"], &["-n 100000001"]));
    c.push(roll_case("d6", &["-n", "-1"], &["'-1'", "--count"]));
    c.push(roll_case("d6x", &[], &["unexpected 'x'"]));

    // --- command lines ---
    c.push(cmd_case(
        "--trials -1",
        &[
            "run",
            "{dir}/cat.toml",
            "--trials",
            "-1",
            "--out",
            "{dir}/out",
        ],
        &["'-1'", "--trials"],
    ));
    c.push(cmd_case(
        "--trials 0",
        &[
            "run",
            "{dir}/cat.toml",
            "--trials",
            "0",
            "--out",
            "{dir}/out",
        ],
        &["--trials 0"],
    ));
    c.push(cmd_case(
        "--trials huge",
        &[
            "run",
            "{dir}/cat.toml",
            "--trials",
            "18446744073709551615",
            "--out",
            "{dir}/out",
        ],
        &["--trials 18446744073709551615"],
    ));
    c.push(cmd_case(
        "--trials a word",
        &[
            "run",
            "{dir}/cat.toml",
            "--trials",
            "many",
            "--out",
            "{dir}/out",
        ],
        &["'many'", "--trials"],
    ));
    c.push(cmd_case(
        "--threads 0",
        &[
            "run",
            "{dir}/cat.toml",
            "--threads",
            "0",
            "--out",
            "{dir}/out",
        ],
        &["--threads 0"],
    ));
    c.push(cmd_case(
        "--threads 100000",
        &[
            "run",
            "{dir}/cat.toml",
            "--threads",
            "100000",
            "--out",
            "{dir}/out",
        ],
        &["--threads 100000", "256"],
    ));
    c.push(cmd_case(
        "--threads -2",
        &[
            "run",
            "{dir}/cat.toml",
            "--threads",
            "-2",
            "--out",
            "{dir}/out",
        ],
        &["'-2'", "--threads"],
    ));
    c.push(cmd_case("run without specs", &["run"], &["required"]));
    c.push(cmd_case("unknown subcommand", &["rnu"], &["rnu"]));
    c.push(cmd_case(
        "unknown option",
        &["run", "{dir}/cat.toml", "--trails", "5"],
        &["--trails"],
    ));
    c.push(cmd_case(
        "compare without a change",
        &["compare", "{dir}/cat.toml", "--out", "{dir}/out"],
        &["cat.toml", "--variant"],
    ));
    c.push(cmd_case(
        "compare bad --variant",
        &[
            "compare",
            "{dir}/cat.toml",
            "--variant",
            "overwatch",
            "--out",
            "{dir}/out",
        ],
        &["--variant", "NAME=VALUE"],
    ));
    c.push(cmd_case(
        "compare unknown variant value",
        &[
            "compare",
            "{dir}/cat.toml",
            "--variant",
            "overwatch=newest",
            "--out",
            "{dir}/out",
        ],
        &["cat.toml: --variant overwatch:"],
    ));
    c.push(cmd_case(
        "compare sweep axis as variant",
        &[
            "compare",
            "{dir}/cat.toml",
            "--variant",
            "range=4",
            "--out",
            "{dir}/out",
        ],
        &["cat.toml: --variant range:"],
    ));
    c.push(cmd_case(
        "compare unknown parameter",
        &[
            "compare",
            "{dir}/cat.toml",
            "--variant",
            "toughnes=4",
            "--out",
            "{dir}/out",
        ],
        &["--variant toughnes", "did you mean"],
    ));
    c.push(cmd_case(
        "compare --alpha 0",
        &[
            "compare",
            "{dir}/cat.toml",
            "--variant",
            "bs=4",
            "--alpha",
            "0",
            "--out",
            "{dir}/out",
        ],
        &["--alpha 0"],
    ));
    c.push(cmd_case(
        "compare --alpha nan",
        &[
            "compare",
            "{dir}/cat.toml",
            "--variant",
            "bs=4",
            "--alpha",
            "NaN",
            "--out",
            "{dir}/out",
        ],
        &["--alpha NaN"],
    ));
    c.push(cmd_case(
        "compare --trials -3",
        &[
            "compare",
            "{dir}/cat.toml",
            "--variant",
            "bs=4",
            "--trials",
            "-3",
        ],
        &["'-3'", "--trials"],
    ));
    c.push(cmd_case(
        "compare three specs",
        &[
            "compare",
            "{dir}/cat.toml",
            "{dir}/cat.toml",
            "{dir}/cat.toml",
        ],
        &["cat.toml"],
    ));
    c.push(cmd_case(
        "check --alpha 2",
        &["check", "{dir}/cat.toml", "--alpha", "2"],
        &["--alpha 2"],
    ));
    c.push(cmd_case(
        "check --seed -1",
        &["check", "{dir}/cat.toml", "--seed", "-1"],
        &["'-1'", "--seed"],
    ));
    c.push(cmd_case(
        "check an empty folder",
        &["check", "{dir}/empty"],
        &["no specs found"],
    ));
    c.push(cmd_case(
        "check --force without --update",
        &["check", "{dir}/cat.toml", "--force"],
        &["--update"],
    ));
    c.push(cmd_case(
        "list unknown system",
        &["list", "gorka"],
        &["gorka"],
    ));
    c.push(cmd_case(
        "list unknown scenario",
        &["list", "gce", "shootin"],
        &["shootin"],
    ));
    c.push(cmd_case(
        "prob bad --format",
        &["prob", "d6", "--format", "xml"],
        &["'xml'", "--format"],
    ));
    // --- BFG (issue 27): "A ship may only make one teleport attack each
    // turn", refused however the two fields meet: both in [base], the
    // count in a profile, the count swept, the attack swept beside a
    // profile's count, both swept, under `check` and as a `compare
    // --variant` override.
    c.extend(bfg_teleport_cases());
    c.extend(volley_cases());
    c.push(cmd_case(
        "prob chart of a bad type",
        &["prob", "d6", "--chart", "{dir}/x.gif"],
        &["x.gif", ".svg or .png"],
    ));
    c
}

fn scratch(i: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("krunch-bad-{}-{i}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    dir
}

fn run_case(i: usize, case: &Case) -> Result<(), String> {
    let dir = scratch(i);
    for (name, text) in &case.files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
    }
    let d = dir.display().to_string();
    let args: Vec<String> = case.args.iter().map(|a| a.replace("{dir}", &d)).collect();
    let o = Command::new(env!("CARGO_BIN_EXE_krunch"))
        .args(&args)
        .output()
        .expect("krunch runs");
    let err = String::from_utf8_lossy(&o.stderr).replace(&format!("{d}/"), "");
    let result = if o.status.code() != Some(case.code) {
        Err(format!(
            "exit {:?}, wanted {}: {err}",
            o.status.code(),
            case.code
        ))
    } else if let Some(m) = case.must.iter().find(|m| !err.contains(m.as_str())) {
        Err(format!("message lacks {m:?}: {err}"))
    } else if err.contains("panicked") {
        Err(format!("panicked: {err}"))
    } else if !o.stdout.is_empty() {
        // refused before any output, not after half of it
        Err(format!(
            "printed before refusing: {}",
            String::from_utf8_lossy(&o.stdout)
        ))
    } else {
        Ok(())
    };
    // nothing was written for refused input
    let out: Vec<_> = std::fs::read_dir(dir.join("out"))
        .map(|r| r.filter_map(|e| e.ok()).map(|e| e.file_name()).collect())
        .unwrap_or_default();
    let result = result.and_then(|()| {
        if out.is_empty() {
            Ok(())
        } else {
            Err(format!("wrote {out:?}"))
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    result
}

#[test]
fn the_template_itself_is_good() {
    for (i, template) in [TEMPLATE, MELEE].into_iter().enumerate() {
        let dir = scratch(9990 + i);
        std::fs::write(dir.join("cat.toml"), template).unwrap();
        let out = dir.join("out");
        let o = Command::new(env!("CARGO_BIN_EXE_krunch"))
            .args([
                "run",
                dir.join("cat.toml").to_str().unwrap(),
                "--quiet",
                "--out",
                out.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(out.join("cat").join("data.csv").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn every_bad_input_is_refused_and_named() {
    let cases = catalogue();
    assert!(cases.len() >= 100, "only {} cases", cases.len());
    let failures: Vec<String> = cases
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            run_case(i, c)
                .err()
                .map(|e| format!("#{i} {}: {e}", c.what))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

// --- issue 23, item 2: merges and compares that were wrong with exit 0 ---

/// A spec with a probability and a mean, sharded in two into `{dir}/sh`.
const SHARDED: &str = r#"system = "gce"
scenario = "shooting"
trials = 140000
seed = 1
metrics = ["p_hit", "mean_damage"]

[base]
bs = 3
toughness = 3
wounds = 1
save = 0
target_ws = 3
target_bs = 3
range = 6

[[profile]]
name = "Shoota"
weapon = "shoota"
"#;

fn krunch_in(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_krunch"))
        .args(args)
        .output()
        .expect("krunch runs")
}

/// Writes the sharded spec and its two shards into a scratch folder;
/// returns the folder, the spec and the two shard files.
fn two_shards(i: usize) -> (PathBuf, String, [PathBuf; 2]) {
    let dir = scratch(i);
    let spec = dir.join("s.toml");
    std::fs::write(&spec, SHARDED).unwrap();
    let sh = dir.join("sh");
    for k in ["1/2", "2/2"] {
        let o = krunch_in(&[
            "run",
            spec.to_str().unwrap(),
            "--shard",
            k,
            "--out",
            sh.to_str().unwrap(),
            "-q",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let files = [
        sh.join("s.shard-1-of-2.json"),
        sh.join("s.shard-2-of-2.json"),
    ];
    (dir, spec.display().to_string(), files)
}

/// Merges into `{dir}/out` and returns (exit code, stderr); the report
/// must not be written when refused.
fn merge_of(dir: &std::path::Path, spec: &str, files: &[PathBuf]) -> (Option<i32>, String) {
    let out = dir.join("out");
    let _ = std::fs::remove_dir_all(&out);
    let mut args = vec!["merge".to_string(), spec.to_string()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    args.extend(["--out".into(), out.display().to_string(), "-q".into()]);
    let o = Command::new(env!("CARGO_BIN_EXE_krunch"))
        .args(&args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    if o.status.code() != Some(0) {
        assert!(!out.join("s").exists(), "a refused merge wrote a report");
    }
    (o.status.code(), err)
}

/// Rewrites shard `file` through `edit` with its checksum made to match
/// again (a forged or buggy shard, not a damaged one).
fn forge(file: &std::path::Path, edit: impl FnOnce(&mut krunch::experiment::shard::ShardFile)) {
    let mut s: krunch::experiment::shard::ShardFile =
        serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    edit(&mut s);
    s.sha256 = s.checksum();
    std::fs::write(file, serde_json::to_string(&s).unwrap()).unwrap();
}

/// The index of `metric` in the shards' tallies.
fn metric_index(spec: &str, metric: &str) -> usize {
    let exp = krunch::experiment::load(std::path::Path::new(spec)).unwrap();
    exp.models[0][0]
        .metrics()
        .iter()
        .position(|m| m.name == metric)
        .unwrap()
}

#[test]
fn merge_refuses_a_shard_edited_after_it_was_written() {
    let (dir, spec, files) = two_shards(23_001);
    assert_eq!(merge_of(&dir, &spec, &files).0, Some(0));
    let text = std::fs::read_to_string(&files[0]).unwrap();
    let p_hit = metric_index(&spec, "p_hit");
    let mut s: serde_json::Value = serde_json::from_str(&text).unwrap();
    s["tallies"][0][0]["sums"][p_hit] = serde_json::json!(1999);
    std::fs::write(&files[0], s.to_string()).unwrap();
    let (code, err) = merge_of(&dir, &spec, &files);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("s.shard-1-of-2.json: sha256:") && err.contains("changed"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merge_refuses_impossible_sums_even_with_a_matching_checksum() {
    let p = |dir: &std::path::Path| dir.display().to_string();
    // a probability's sum above its trials (P(hit) = 33.7 before)
    let (dir, spec, files) = two_shards(23_002);
    let p_hit = metric_index(&spec, "p_hit");
    let mean = metric_index(&spec, "mean_damage");
    forge(&files[0], |s| {
        let t = &mut s.tallies[0][0];
        t.sums[p_hit] = 200_000;
        t.sums_sq[p_hit] = "200000".into();
    });
    let (code, err) = merge_of(&dir, &spec, &files);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("s.shard-1-of-2.json: cell 0, profile 1, metric p_hit: sum 200000 is more than its 74464 trials"),
        "{}: {err}",
        p(&dir)
    );
    // a sum of squares below the sum: a zero-width interval
    let (dir, spec, files) = two_shards(23_003);
    forge(&files[0], |s| {
        let t = &mut s.tallies[0][0];
        t.sums[mean] = 900;
        t.sums_sq[mean] = "10".into();
    });
    let (code, err) = merge_of(&dir, &spec, &files);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("metric mean_damage: sum of squares 10 is below the sum 900"),
        "{err}"
    );
    // sums that wrap past 64 bits when added
    let (dir, spec, files) = two_shards(23_004);
    for f in &files {
        forge(f, |s| {
            let t = &mut s.tallies[0][0];
            t.sums[mean] = 1 << 63;
            t.sums_sq[mean] = (1u128 << 126).to_string();
        });
    }
    let (code, err) = merge_of(&dir, &spec, &files);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("metric mean_damage: the sums of all shards pass 64 bits"),
        "{err}"
    );
    // a shard far larger than the spec's can be is not read whole
    let (dir, spec, files) = two_shards(23_005);
    let mut text = std::fs::read_to_string(&files[0]).unwrap();
    text.push_str(&" ".repeat(1 << 20));
    std::fs::write(&files[0], text).unwrap();
    let (code, err) = merge_of(&dir, &spec, &files);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("s.shard-1-of-2.json: larger than the"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn compare_refuses_specs_of_different_scenarios_or_metrics() {
    let dir = scratch(23_006);
    let a = dir.join("a.toml");
    std::fs::write(&a, TEMPLATE).unwrap();
    let cases = [
        (
            "b.toml",
            MELEE.to_string(),
            "a.toml: scenario: 'shooting', but",
        ),
        (
            "c.toml",
            with(7, "metrics = [\"p_hit\"]"),
            "a.toml: metrics: 'p_hit', 'p_out_of_action', but",
        ),
    ];
    for (name, text, must) in cases {
        let b = dir.join(name);
        std::fs::write(&b, text).unwrap();
        let out = dir.join("out");
        let o = krunch_in(&[
            "compare",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "-q",
        ]);
        let err = String::from_utf8_lossy(&o.stderr).replace(&format!("{}/", dir.display()), "");
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(must), "{name}: {err}");
        assert!(o.stdout.is_empty(), "{name}: printed a comparison");
        assert!(!out.exists() || std::fs::read_dir(&out).unwrap().next().is_none());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// --- issue 23, item 3: checks that cry wolf, and still catch a 1% error ---

#[test]
fn check_monte_carlo_passes_on_every_bundled_spec() {
    // estimates of exactly 0 or 1 and rare events not seen (46 FAILs
    // before) must hold against their exact baselines
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = Command::new(env!("CARGO_BIN_EXE_krunch"))
        .current_dir(root)
        .args(["check", "--monte-carlo", "experiments/"])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let fails: Vec<&str> = out.lines().filter(|l| l.starts_with("FAIL")).collect();
    assert!(
        o.status.success() && fails.is_empty(),
        "exit {:?}, {} FAILs:\n{}\n{}",
        o.status.code(),
        fails.len(),
        fails
            .iter()
            .take(10)
            .copied()
            .collect::<Vec<_>>()
            .join("\n"),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The template with 400,000 trials, P(hit) and mean hits, both pinned at
/// range 3 to `value` (exactly 2/3 each).
fn pinned_at(value: f64) -> String {
    TEMPLATE
        .replace("trials = 2000", "trials = 400000")
        .replace(
            "metrics = [\"p_hit\", \"p_out_of_action\"]",
            "metrics = [\"p_hit\", \"mean_hits\"]",
        )
        .replace(
            "[[expect]]\nmetric = \"p_hit\"\ncell = { range = 3 }\nvalue = 0.5\ntolerance = 0.5\n",
            &format!(
                "[[expect]]\nmetric = \"p_hit\"\ncell = {{ range = 3 }}\nvalue = {value}\n\n[[expect]]\nmetric = \"mean_hits\"\ncell = {{ range = 3 }}\nvalue = {value}\n"
            ),
        )
}

#[test]
fn check_monte_carlo_still_catches_a_one_percent_error() {
    let dir = scratch(23_010);
    let exact = 2.0 / 3.0;
    for (value, code) in [(exact, 0), (exact * 1.01, 1), (exact * 0.99, 1)] {
        let spec = dir.join("cat.toml");
        std::fs::write(&spec, pinned_at(value)).unwrap();
        let o = krunch_in(&["check", "--monte-carlo", spec.to_str().unwrap()]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(code), "value {value}: {out}");
        if code == 1 {
            // both the probability (binomial test) and the mean caught,
            // each naming its line
            assert!(
                out.contains("FAIL p_hit") && out.contains("cat.toml:32"),
                "{out}"
            );
            assert!(
                out.contains("FAIL mean_hits") && out.contains("cat.toml:37"),
                "{out}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_report_does_not_flag_estimates_of_exactly_zero_as_bugs() {
    // krygothic_fire_modes_per_ap said "3 of 240 exact values disagree ...
    // a bug to report" with z = -inf where a rare critical fail was not seen
    let dir = scratch(23_011);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let spec = root.join("experiments/krygothic_fire_modes_per_ap.toml");
    let o = krunch_in(&[
        "run",
        spec.to_str().unwrap(),
        "-q",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary =
        std::fs::read_to_string(dir.join("krygothic_fire_modes_per_ap/summary.md")).unwrap();
    assert!(!summary.contains("disagree"), "{summary}");
    assert!(!summary.contains("inf"), "{summary}");
    assert!(summary.contains("All 240 exact values agree"), "{summary}");
    let json =
        std::fs::read_to_string(dir.join("krygothic_fire_modes_per_ap/results.json")).unwrap();
    assert!(!json.contains("\"flagged\": true"), "a row is flagged");
    let _ = std::fs::remove_dir_all(&dir);
}

// --- issue 23, item 4: accepted but wrong ---

fn issue23_cases() -> Vec<Case> {
    vec![
        spec_case(
            "a metric listed twice (duplicate rows)",
            with(7, "metrics = [\"p_hit\", \"p_hit\"]"),
            &["cat.toml:7: metrics:", "'p_hit' is listed twice"],
        ),
        spec_case(
            "a sweep value listed twice (duplicate rows)",
            with(25, "range = [3, 6, 3]"),
            &["cat.toml:25: sweep.range:", "3 is listed twice"],
        ),
        spec_case(
            "a profile's own value that the sweep would replace",
            with(22, "weapon = \"shoota\"\nrange = 9"),
            &[
                "cat.toml:23: profile[0].range:",
                "sets range = 9, but [sweep] sweeps range (line 26)",
            ],
        ),
        cmd_case(
            "the same --variant twice (the last kept)",
            &[
                "compare",
                "{dir}/cat.toml",
                "--variant",
                "bs=4",
                "--variant",
                "bs=5",
                "--out",
                "{dir}/out",
            ],
            &["--variant bs:", "given twice (bs=4, then bs=5)"],
        ),
        cmd_case(
            "the same rule variant twice",
            &[
                "compare",
                "{dir}/cat.toml",
                "--variant",
                "overwatch=original",
                "--variant",
                "overwatch=current",
                "--out",
                "{dir}/out",
            ],
            &["--variant overwatch:", "given twice"],
        ),
    ]
}

#[test]
fn issue23_accepted_but_wrong_inputs_are_refused_and_named() {
    let cases = issue23_cases();
    let failures: Vec<String> = cases
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            run_case(23_100 + i, c)
                .err()
                .map(|e| format!("#{i} {}: {e}", c.what))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn a_preset_stat_the_scenario_does_not_read_is_said_not_dropped_in_silence() {
    // the Shoota at a vehicle: its Ammo Roll is not read by vehicle_hits
    // (it reports the vehicle, not the weapon); the run says so, naming
    // file, line, field
    let dir = scratch(23_120);
    let spec = dir.join("cat.toml");
    std::fs::write(
        &spec,
        "system = \"gce\"\nscenario = \"vehicle_hits\"\ntrials = 1000\nseed = 1\n\n[base]\nvehicle = \"ork_trukk\"\n\n[[profile]]\nname = \"Shoota\"\nweapon = \"shoota\"\nbs = 3\nrange = 12\n",
    )
    .unwrap();
    let o = krunch_in(&[
        "run",
        spec.to_str().unwrap(),
        "--out",
        dir.join("out").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("cat.toml:11: profile[0].weapon: scenario 'vehicle_hits' does not read")
            && err.contains("ammo = 4"),
        "{err}"
    );
    let summary = std::fs::read_to_string(dir.join("out/cat/summary.md")).unwrap();
    assert!(summary.contains("ammo = 4"), "{summary}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn exact_probabilities_are_clamped_at_the_source() {
    // crisis_difficulty_ladder wrote 1.0000000000000002 into data.csv
    let dir = scratch(23_121);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in ["crisis_difficulty_ladder", "crisis_extras_rules", "bfg_ram"] {
        let spec = root.join(format!("experiments/{name}.toml"));
        let o = krunch_in(&[
            "run",
            spec.to_str().unwrap(),
            "-q",
            "--trials",
            "100",
            "--out",
            dir.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let csv = std::fs::read_to_string(dir.join(name).join("data.csv")).unwrap();
        let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        let col = |h: &str| header.iter().position(|c| *c == h).unwrap();
        let (metric, exact) = (col("metric"), col("exact"));
        for line in csv.lines().skip(1) {
            let f: Vec<&str> = line.split(',').collect();
            let Ok(x) = f[exact].parse::<f64>() else {
                continue;
            };
            assert!(x >= 0.0 && !f[exact].starts_with('-'), "{name}: {line}");
            if f[metric].starts_with("p_") {
                assert!(x <= 1.0, "{name}: {line}");
            }
        }
        let summary = std::fs::read_to_string(dir.join(name).join("summary.md")).unwrap();
        assert!(!summary.contains("-0%"), "{name}: -0% in summary.md");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// --- issue 23, item 5: unsafe output ---

#[test]
fn names_and_titles_are_escaped_for_every_output() {
    let dir = scratch(23_130);
    let evil = "=HYPERLINK(\\\"http://x\\\")|<b>\\u001b[2J\\u0007";
    let spec = dir.join("cat.toml");
    std::fs::write(
        &spec,
        TEMPLATE
            .replace(
                "title = \"Catalogue\"",
                "title = \"<script>alert(1)</script> | t\"",
            )
            .replace("name = \"Shoota\"", &format!("name = \"{evil}\"")),
    )
    .unwrap();
    let out = dir.join("out");
    let o = krunch_in(&[
        "run",
        spec.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let terminal_safe = |bytes: &[u8], what: &str| {
        assert!(
            !bytes.contains(&0x1b) && !bytes.contains(&0x07),
            "{what}: ESC or BEL reached the terminal"
        );
    };
    terminal_safe(&o.stderr, "run stderr");
    let report = out.join("cat");
    // CSV: no cell a spreadsheet reads as a formula
    let csv = std::fs::read_to_string(report.join("data.csv")).unwrap();
    for line in csv.lines().skip(1) {
        assert!(line.starts_with("\"'=HYPERLINK"), "{line}");
    }
    // Markdown: no raw HTML, and the name's | does not add a column
    let md = std::fs::read_to_string(report.join("summary.md")).unwrap();
    assert!(!md.contains("<script>") && !md.contains("<b>"), "{md}");
    assert!(md.contains("&lt;script&gt;"), "{md}");
    for line in md.lines().filter(|l| l.starts_with("| range")) {
        assert_eq!(line.matches(" |").count(), 2, "{line}");
    }
    // compare: stdout, compare.md and the wiki table
    let o = krunch_in(&[
        "compare",
        spec.to_str().unwrap(),
        "--variant",
        "bs=4",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    terminal_safe(&o.stdout, "compare stdout");
    terminal_safe(&o.stderr, "compare stderr");
    let cmp = out.join("cat-compare");
    let md = std::fs::read_to_string(cmp.join("compare.md")).unwrap();
    assert!(!md.contains("<script>") && !md.contains("<b>"), "{md}");
    let table: Vec<&str> = md.lines().filter(|l| l.starts_with("| ")).collect();
    let columns = table[0].matches(" | ").count();
    for line in &table {
        assert_eq!(
            line.matches(" | ").count(),
            columns,
            "a row of compare.md breaks the table: {line}"
        );
    }
    let wiki = std::fs::read_to_string(cmp.join("compare.wiki")).unwrap();
    assert!(
        !wiki.contains("<script>") && !wiki.contains("<b>"),
        "{wiki}"
    );
    for line in wiki.lines().filter(|l| l.starts_with("| ")) {
        // one `|` at the start, cells joined by `||` only
        assert_eq!(line.matches('|').count() % 2, 1, "{line}");
        assert!(!line.contains("HYPERLINK(\"http://x\")|"), "{line}");
    }
    let csv = std::fs::read_to_string(cmp.join("compare.csv")).unwrap();
    for line in csv.lines().skip(1) {
        assert!(line.starts_with("\"'=HYPERLINK"), "{line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// --- issue 23, item 6: unbounded work ---

/// Runs krunch and fails if it takes longer than `secs` (killing it).
fn within(secs: u64, args: &[&str]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_krunch"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if start.elapsed().as_secs() >= secs {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} still ran after {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn a_tolerance_no_check_can_resolve_is_refused_not_run_for_ever() {
    let dir = scratch(23_140);
    let spec = dir.join("cat.toml");
    std::fs::write(&spec, with(36, "tolerance = 1e-8")).unwrap();
    let o = within(20, &["check", "--monte-carlo", spec.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr).replace(&format!("{}/", dir.display()), "");
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("cat.toml:32: expect.tolerance:") && err.contains("widen it"),
        "{err}"
    );
    // a mean's: its variance is known only once it ran; not raised for ever
    let mean = with(36, "tolerance = 1e-8").replace(
        "metric = \"p_hit\"\ncell = { range = 3 }",
        "metric = \"p_out_of_action\"\ncell = { range = 3 }",
    );
    std::fs::write(&spec, mean).unwrap();
    let o = within(20, &["check", "--monte-carlo", spec.to_str().unwrap()]);
    assert_ne!(o.status.code(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn a_spec_that_is_a_fifo_is_refused_not_waited_on() {
    let dir = scratch(23_141);
    let fifo = dir.join("cat.toml");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        // say so rather than pass in silence
        panic!("mkfifo is needed for this test");
    }
    for cmd in ["run", "check"] {
        let o = within(10, &[cmd, fifo.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {err}");
        assert!(
            err.contains("cat.toml: file: not a regular file"),
            "{cmd}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// --- issue 23, item 7: messages ---

fn message_cases() -> Vec<Case> {
    vec![
        spec_case(
            "an unknown parameter points at the scenario's own list",
            with(13, "bss = 3"),
            &[
                "cat.toml:13: base.bss:",
                "did you mean 'bs'?",
                "(see `krunch list gce shooting`)",
            ],
        ),
        spec_case(
            "a bad variant value: as written, with a suggestion",
            with(10, "overwatch = \"curent\""),
            &[
                "cat.toml:10: variants.overwatch: 'curent' is not one of: current, original (did you mean 'current'?)",
            ],
        ),
        spec_case(
            "an unknown variant names the rule set's variants",
            "name = \"cat\"\ntitle = \"Crisis\"\nsystem = \"crisis\"\nscenario = \"check\"\ntrials = 2000\nseed = 1\n\n[variants]\nfoo = \"x\"\n\n[base]\nskill = 2\n\n[[profile]]\nname = \"one\"\n".to_string(),
            &[
                "cat.toml:9: variants.foo:",
                "unknown rule variant 'foo' (known: dodge_damage)",
            ],
        ),
        spec_case(
            "a misspelt metric: a suggestion and the list that shows metrics",
            with(7, "metrics = [\"p_hti\"]"),
            &[
                "cat.toml:7: metrics: unknown metric 'p_hti' (did you mean 'p_hit'?)",
                "`krunch list gce shooting` lists the metrics",
            ],
        ),
        spec_case(
            "varients = {...} in a profile",
            with(
                22,
                "weapon = \"shoota\"\nvarients = { overwatch = \"original\" }",
            ),
            &[
                "cat.toml:23: profile[0].varients:",
                "did you mean 'variants'?",
            ],
        ),
        spec_case(
            "metrics = after [sweep] (a TOML trap)",
            with(25, "range = [3, 6]\nmetrics = [\"p_hit\"]"),
            &[
                "cat.toml:26: sweep.metrics:",
                "a key after a [table] header belongs to that table",
            ],
        ),
        spec_case(
            "a missing trials, in krunch's words",
            with(5, ""),
            &["cat.toml", "trials: missing: set trials = ..."],
        ),
    ]
}

#[test]
fn issue23_messages_name_the_right_list_and_suggest() {
    let cases = message_cases();
    let failures: Vec<String> = cases
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            run_case(23_200 + i, c)
                .err()
                .map(|e| format!("#{i} {}: {e}", c.what))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn check_shows_the_tolerance_a_value_was_held_to() {
    let dir = scratch(23_210);
    let spec = dir.join("cat.toml");
    // exact P(hit) at range 3 is 2/3: held to the stated 0.005, not 1e-9
    std::fs::write(
        &spec,
        with(35, "value = 0.67").replace("tolerance = 0.5", "tolerance = 0.005"),
    )
    .unwrap();
    let junit = dir.join("check.xml");
    let o = krunch_in(&[
        "check",
        "-v",
        spec.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("exact, tolerance 0.005") && !out.contains("1e-9"),
        "{out}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(!xml.contains("tolerance 1e-9"), "{xml}");
    // and a FAIL line too
    std::fs::write(
        &spec,
        with(35, "value = 0.68").replace("tolerance = 0.5", "tolerance = 0.005"),
    )
    .unwrap();
    let o = krunch_in(&["check", spec.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("FAIL") && out.contains("exact, tolerance 0.005"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_io_failure_has_its_own_exit_code_and_says_so_once() {
    let dir = scratch(23_211);
    let spec = dir.join("cat.toml");
    std::fs::write(&spec, TEMPLATE).unwrap();
    std::fs::write(dir.join("afile"), "x").unwrap();
    let junit = dir.join("afile").join("check.xml");
    let o = krunch_in(&[
        "check",
        spec.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert_eq!(err.matches("writing").count(), 1, "{err}");
    assert!(err.contains("afile/check.xml"), "{err}");
    // bad input stays 2
    let o = krunch_in(&["check", dir.join("missing.toml").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_update_lists_the_values_it_re_pins() {
    let dir = scratch(23_212);
    let spec = dir.join("cat.toml");
    std::fs::write(&spec, TEMPLATE).unwrap();
    let o = krunch_in(&["check", "--update", spec.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // the rule changes (BS 3 -> 4): P(hit) moves, and --update says so
    std::fs::write(&spec, with(13, "bs = 4")).unwrap();
    let o = krunch_in(&["check", "--update", spec.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        out.contains("re-pinned FAIL p_hit [Shoota, range=3]")
            && out.contains("baselines/cat.toml:"),
        "{out}"
    );
    assert!(
        out.contains("pinned values moved and are re-pinned"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

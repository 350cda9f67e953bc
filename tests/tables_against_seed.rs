//! Tables and presets held to the seed text (issue 28, item 2): each quote
//! an encoded table or preset gives as its source is looked up in the seed,
//! and paired with an assertion on the value the code uses. Needs the seed
//! texts (`../shared/seeds` or `KRUNCH_SEEDS`); skips with a note when they
//! are absent, fails under `CI=true`.

#[path = "common/independent.rs"]
mod independent;

#[path = "common/rerun.rs"]
mod rerun;
use independent::{seed_text, squash};
use krunch::systems::{ParamGroup, ParamValue, Params, RULE_SETS};

/// Every preset of every rule set: each quoted fragment of its `source`
/// (split at "..." and at " / ", a line break) is in its seed (whitespace aside), and every number it
/// sets appears in its quotes, so a preset cannot carry a number its quote
/// does not give.
#[test]
fn every_preset_quotes_its_seed_and_carries_its_numbers() {
    let mut checked = 0;
    let mut missing = Vec::new();
    for r in RULE_SETS {
        let Some(text) = seed_text(r.seed) else {
            return;
        };
        let text = squash(&text);
        for p in r.presets {
            let quotes: Vec<&str> = p.source.split('"').skip(1).step_by(2).collect();
            // GCE's Shoota, Slugga and Ork Trukk quote their tables as one
            // row; the seed sets them out one cell a line (so the quotes
            // are not verbatim): the weapons are checked cell by cell below,
            // the Trukk's Hit Location Table by `ork_trukk_locations`.
            if matches!(p.name, "shoota" | "slugga" | "ork_trukk") {
                continue;
            }
            if quotes.is_empty() {
                continue; // a chart row by name (skirmish20): no quote
            }
            // "..." elides, " / " marks a line break of the seed.
            for q in quotes
                .iter()
                .flat_map(|q| q.split("..."))
                .flat_map(|q| q.split(" / "))
            {
                let q = squash(q);
                if !text.contains(&q) {
                    missing.push(format!("{} {}: \"{q}\"", r.name, p.name));
                }
                checked += 1;
            }
            let all = quotes.join(" ");
            if r.name == "skirmish20" {
                continue; // quotes a chart row's name; its cells are data
            }
            for (k, v) in p.sets {
                if let Ok(n) = v.trim_start_matches('-').parse::<i64>() {
                    if n <= 1 && !matches!(*k, "damage" | "strength") {
                        continue; // 0 and 1 are too common to pair reliably
                    }
                    assert!(
                        all.contains(&n.to_string()),
                        "{} {}: sets {k} = {v}, but its quote never says {n}: {all}",
                        r.name,
                        p.name
                    );
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "not in the seeds:\n{}",
        missing.join("\n")
    );
    assert!(checked > 20, "only {checked} quotes checked");
}

/// The statline cells after `anchor` in the GCE seed: the cells between
/// the "|---|" rule and the next blank cell, `|` and spaces stripped.
fn statline(text: &str, anchor: &str) -> Vec<String> {
    let at = text.find(anchor).unwrap_or_else(|| panic!("no {anchor}"));
    let rest = &text[at..];
    let rule = rest.find("|---|").unwrap();
    rest[rule..]
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("| 0"))
        .map(|l| l.trim().trim_end_matches('|').trim().to_string())
        .take_while(|c| !c.is_empty())
        .collect()
}

fn preset(system: &str, name: &str) -> Vec<(String, String)> {
    let r = krunch::systems::rule_set(system).unwrap();
    let p = r.presets.iter().find(|p| p.name == name).unwrap();
    p.sets
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn set(sets: &[(String, String)], k: &str) -> String {
    sets.iter().find(|(x, _)| x == k).unwrap().1.clone()
}

/// "Weapon Statlines ... For example: Shoota | Range | Hit modifier |
/// Strength | Save Mod | D | Ammo Roll ... | 0” - 12” | 12” - 18” | +1 | -
/// | 3 | 0 | 1 | 4+ |" and the Slugga's ("an Ork Slugga has the following
/// statline: ... | 0” - 6” | 6” - 12” | +1 | - | 3 | 0 | 1 | 4+ | N/A |"):
/// the presets carry the seed's cells.
#[test]
fn shoota_and_slugga_presets_are_the_seed_statlines() {
    let Some(text) = seed_text("002_8c1a109281471897.txt") else {
        return;
    };
    for (name, anchor) in [
        ("shoota", "For example:\nShoota"),
        ("slugga", "an Ork Slugga has the following statline"),
    ] {
        let cells = statline(&text, anchor);
        assert!(cells.len() >= 8, "{name}: {cells:?}");
        let sets = preset("gce", name);
        let upper = |c: &str| {
            c.rsplit('-')
                .next()
                .unwrap()
                .trim()
                .trim_end_matches('”')
                .to_string()
        };
        assert_eq!(set(&sets, "short_range"), upper(&cells[0]), "{name}");
        assert_eq!(set(&sets, "long_range"), upper(&cells[1]), "{name}");
        assert_eq!(
            set(&sets, "short_hit"),
            cells[2].trim_start_matches('+'),
            "{name}"
        );
        assert_eq!(cells[3], "-", "{name}: no long-range modifier");
        assert_eq!(set(&sets, "long_hit"), "0", "{name}");
        assert_eq!(set(&sets, "strength"), cells[4], "{name}");
        assert_eq!(set(&sets, "save_mod"), cells[5], "{name}");
        assert_eq!(set(&sets, "damage"), cells[6], "{name}");
        assert_eq!(format!("{}+", set(&sets, "ammo")), cells[7], "{name}");
    }
    // "an ‘Eavy Shoota has a -2 save Modifier"
    assert!(text.contains("an ‘Eavy Shoota has a -2 save Modifier"));
    assert_eq!(set(&preset("gce", "eavy_shoota"), "save_mod"), "-2");
}

/// BFG's ship presets against the ram and boarding examples.
#[test]
fn bfg_ship_presets_are_the_seed_examples() {
    let Some(text) = seed_text("004_d4c8740a73a9c193.txt") else {
        return;
    };
    let pairs = [
        (
            "agrippa",
            "starting_damage",
            "The Agrippa had a starting damage capacity of 8",
            "8",
        ),
        (
            "agrippa",
            "front_armour",
            "which has armour 6 on the front",
            "6",
        ),
        ("unclean", "armour", "the Unclean (which has Armour 5)", "5"),
        (
            "unclean",
            "starting_damage",
            "Unclean (with a starting damage capacity of 8)",
            "8",
        ),
        (
            "hyperion",
            "damage",
            "the Hyperion (remaining damage 3)",
            "3",
        ),
        (
            "plagueclaw",
            "damage",
            "the Plagueclaw (remaining damage 6)",
            "6",
        ),
    ];
    for (ship, stat, quote, value) in pairs {
        assert!(text.contains(quote), "the seed does not say \"{quote}\"");
        assert!(quote.contains(value));
        assert_eq!(set(&preset("bfg", ship), stat), value, "{ship} {stat}");
    }
}

/// Kry-Gothic's Loses and Triumph tables, row by row, against
/// `psych::adjustment` (the function the action-points model adds): each
/// row's number is read off the seed line itself.
#[test]
fn krygothic_loses_and_triumph_tables_row_by_row() {
    let Some(text) = seed_text("000_e9ab87dd866033e2.txt") else {
        return;
    };
    let rows = [
        (
            "lost_half_army",
            "lost over 50% of your army since the last AP round",
        ),
        ("squad_leader_killed", "Your squad leader has been killed"),
        (
            "leader_lost_will_roll",
            "Your squad leader lost any Willpower rolls",
        ),
        (
            "damaged_by_own_side",
            "Any of your units were damaged by their own side",
        ),
        ("lost_no_units", "You lost no units since the last AP round"),
        ("killed_enemy_leader", "You killed an enemy squad leader"),
        ("interrupted_combo", "You have interrupted a command combo"),
        ("first_blood", "You caused the first wound"),
    ];
    let adjust = |flags: &[&str], commands: i64| {
        let mut p = Params::new();
        p.set("tactics", ParamValue::Int(10));
        p.set("combo_commands", ParamValue::Int(commands));
        for f in flags {
            p.set(*f, ParamValue::Bool(true));
        }
        // Bound to the scenario's declarations, as a spec's would be.
        let rules = krunch::systems::rule_set("krygothic").unwrap();
        let sc = rules.scenario("action_points").unwrap();
        let decls = (sc.params)();
        let p = rules.resolve(&decls, &p).unwrap().bound(decls);
        krunch::systems::krygothic::psych::ApParams::read(&p)
            .unwrap()
            .adjustment()
    };
    for (flag, quote) in rows {
        let line = text
            .lines()
            .find(|l| l.contains(quote))
            .unwrap_or_else(|| panic!("the seed does not say \"{quote}\""));
        // The row's number: the signed figure before "AP" ("-5 AP",
        // "- 2 AP", "+3 AP", "-1AP").
        let head = &line[..line.rfind("AP").unwrap()];
        let digits: String = head
            .chars()
            .rev()
            .skip_while(|c| !c.is_ascii_digit())
            .take_while(char::is_ascii_digit)
            .collect();
        let n: i64 = digits.chars().rev().collect::<String>().parse().unwrap();
        let sign = head
            .trim_end()
            .trim_end_matches(char::is_numeric)
            .trim_end();
        let want = if sign.ends_with('-') { -n } else { n };
        assert_eq!(adjust(&[flag], 0), want, "{flag}: \"{line}\"");
    }
    // "(If 50% of army has been lost as well, just count -5AP)"
    assert!(text.contains("If 50% of army has been lost as well, just count -5AP"));
    assert_eq!(adjust(&["lost_half_army", "squad_leader_killed"], 0), -5);
    // "You have successfully completed a command combo. +1AP per 4 commands"
    assert!(text.contains("+1AP per 4 commands"));
    assert_eq!(adjust(&[], 3), 0);
    assert_eq!(adjust(&[], 4), 1);
    assert_eq!(adjust(&[], 11), 2);
}

/// The Ork Trukk's Hit Location Table, "| Ork Trukk with ‘Eavy Shoota and
/// Boarding Plank | ... | D6 | Armour | Location | ... | 1 | 8 | Crew | 4 |
/// 8 | Wheels | ...", cell by cell against the preset's `locations`
/// (D6 1 to 6 in order).
#[test]
fn ork_trukk_locations_are_the_seed_table() {
    let Some(text) = seed_text("002_8c1a109281471897.txt") else {
        return;
    };
    let at = text
        .find("Ork Trukk with ‘Eavy Shoota and Boarding Plank")
        .unwrap();
    let cells: Vec<String> = text[at..]
        .lines()
        .skip_while(|l| l.trim() != "| 1 |")
        .take(18)
        .map(|l| l.trim().trim_matches('|').trim().to_string())
        .collect();
    let mut rows: Vec<(u32, String)> = cells
        .chunks(3)
        .map(|c| {
            (
                c[0].parse().unwrap(),
                format!("{} {}", c[2].to_lowercase(), c[1]),
            )
        })
        .collect();
    rows.sort();
    let want: Vec<String> = rows.into_iter().map(|(_, e)| e).collect();
    // Two columns of three rows: D6 1-3 left, 4-6 right.
    let got = set(&preset("gce", "ork_trukk"), "locations");
    assert_eq!(got, want.join(", "));
}

/// Runs one test of this binary alone with no seed texts (`KRUNCH_SEEDS`
/// an empty folder), `CI` as given and its own skip log: (passed, its
/// output, the skip log).
fn without_seeds(ci: Option<&str>, name: &str) -> (bool, String, String) {
    let dir = std::env::temp_dir().join(format!("krunch-noseeds-{}-{name}", std::process::id()));
    rerun::rerun_alone(name, &dir, &[("KRUNCH_SEEDS", &dir)], ci)
}

/// Without the seed texts these checks skip, say so and are listed by
/// `make test`; under `CI=true` (`.ci/run` exports it) they fail, naming
/// the missing file, instead of passing unchecked.
#[test]
fn a_missing_seed_skips_with_a_note_and_fails_under_ci() {
    let name = "shoota_and_slugga_presets_are_the_seed_statlines";
    let (ok, out, skipped) = without_seeds(None, name);
    assert!(ok, "{out}");
    assert!(out.contains("1 passed"), "the test ran: {out}");
    assert!(out.contains("skipped: the seed text"), "{out}");
    assert!(
        skipped.starts_with(&format!("tables_against_seed::{name}: the seed text")),
        "{skipped}"
    );
    for ci in ["true", "1"] {
        let (ok, out, _) = without_seeds(Some(ci), name);
        assert!(!ok, "CI={ci} passed without the seed: {out}");
        assert!(out.contains("CI=true but the seed text"), "{out}");
        assert!(out.contains("002_8c1a109281471897.txt"), "{out}");
    }
}

//! D20 sci-fi skirmish tables (seed `001_9921de03e7af5dba.txt`), issue 27
//! "Missing" for D20: mechanics the seed rolls dice for that krunch could
//! not answer. Every value is derived by hand from the seed (the
//! derivation and the quote beside it), never from the rule code; each
//! quote is checked against the seed text.

#[path = "common/independent.rs"]
mod independent;

use independent::{check, exact_all, seed_text};

const SYS: &str = "skirmish20";
const SEED: &str = "001_9921de03e7af5dba.txt";

/// Asserts the seed says each of `quotes` (whitespace squashed).
fn seed_says(quotes: &[&str]) {
    let Some(text) = seed_text(SEED) else {
        return;
    };
    let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let text = squash(&text);
    for q in quotes {
        assert!(text.contains(&squash(q)), "the seed says: {q}");
    }
}

// ------------------------------------ a squad that starts with casualties

/// Three bolt pistols ("Bolt Pistol 12 | 8 | 5 | 3 | X | 1 | Jam"), one
/// AP of fire each (one shot), at 6" into 8 common troopers in standard
/// armour, one turn.
fn regrouped(extra: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    let mut p = vec![
        ("shooters", "3"),
        ("weapon", "bolt_pistol"),
        ("range", "6"),
        ("firing_ap", "1"),
        ("armour", "std"),
        ("troopers", "8"),
        ("turns", "1"),
    ];
    p.extend_from_slice(extra);
    p
}

/// The Regroup worked example: "2 X 4 man squads survivors regroup into an
/// 8 man squad. Count it as 8 men left out of a 10 man squad. In this case
/// they start with 20% casualties, so will be forec to stop advancing once
/// they have 3 figures dead or wounded" (MORALE: "Once a squad has lost at
/// least 50% of it's force wounded or dead it is shaken ... can no longer
/// advance towards an enemy").
///
/// By hand: each shot hits on 8 or less of a D20 (8/20; a 20 jams, which
/// ends only that shooter's one shot), and on the common trooper's Effect
/// of Hit Chart 3-6 of a D6 is Wounded or Dead (4/6), so each shot makes a
/// casualty with p = 8/20 * 4/6 = 4/15. The defender gives each Wounded
/// to an unwounded man while there is one and each Kill "has to be given
/// to an unwounded figure", so with 8 men and 3 shots every casualty is a
/// new man: K ~ Binomial(3, 4/15). Counted as 10, the squad is shaken at 2
/// + K >= 5, i.e. K = 3: (4/15)^3 = 64/3375. Counted as the 8 it is (the
/// default), K >= 4 is needed: never. The 2 men lost before are no figures
/// on the table: mean dead = 3 * 8/20 * 2/6 = 2/5, mean dead or wounded =
/// 3 * 4/15 = 4/5 either way; nor can it run ("falls below 35%": fewer
/// than 3.5 of 10 standing needs 5 of the 8 down).
#[test]
fn the_regroup_example_is_shaken_at_its_third_casualty() {
    seed_says(&[
        "Count it as 8 men left out of a 10 man squad",
        "they start with 20% casualties, so will be forec to stop advancing once they have 3 figures dead or wounded",
        "Once a squad has lost at least 50% of it's force wounded or dead it is shaken",
    ]);
    let ten = regrouped(&[("squad_strength", "10")]);
    let shaken = (4.0f64 / 15.0).powi(3);
    assert!((shaken - 64.0 / 3375.0).abs() < 1e-15);
    check(SYS, "squad_under_fire", &ten, "p_shaken", shaken);
    check(SYS, "squad_under_fire", &ten, "shaken_by_turn=1", shaken);
    check(SYS, "squad_under_fire", &ten, "p_broken", 0.0);
    check(SYS, "squad_under_fire", &ten, "mean_dead", 2.0 / 5.0);
    check(SYS, "squad_under_fire", &ten, "mean_casualties", 4.0 / 5.0);
    let eight = regrouped(&[]);
    check(SYS, "squad_under_fire", &eight, "p_shaken", 0.0);
    check(SYS, "squad_under_fire", &eight, "mean_dead", 2.0 / 5.0);
    check(
        SYS,
        "squad_under_fire",
        &eight,
        "mean_casualties",
        4.0 / 5.0,
    );
}

/// "For morale purposes wounded still count as part of the squad": a
/// squad of 8 counted as 10 with one man already wounded starts 3 hurt of
/// 10 and is shaken at 2 more. With the shots above (7 unwounded men, 3
/// shots: every casualty a new man), K ~ Binomial(3, 4/15):
/// P(K >= 2) = 3 (4/15)^2 (11/15) + (4/15)^3 = (528 + 64)/3375 = 592/3375;
/// dead or wounded at the end: 1 + 4/5 = 9/5 (the wounded man stands on
/// the table, wounded), dead 2/5 as before.
#[test]
fn men_wounded_before_the_fight_count_toward_shaken() {
    seed_says(&["For morale purposes wounded still count as part of the squad"]);
    let p = regrouped(&[("squad_strength", "10"), ("troopers_wounded", "1")]);
    check(SYS, "squad_under_fire", &p, "p_shaken", 592.0 / 3375.0);
    check(SYS, "squad_under_fire", &p, "mean_casualties", 9.0 / 5.0);
    check(SYS, "squad_under_fire", &p, "mean_dead", 2.0 / 5.0);
}

/// A squad strength equal to the figures fired at is today's squad:
/// every exact metric the same, at a Hero-led squad over three turns.
#[test]
fn a_strength_of_the_figures_fired_at_changes_nothing() {
    let base = [
        ("shooters", "3"),
        ("weapon", "laser_assault_rifle"),
        ("range", "20"),
        ("armour", "std"),
        ("troopers", "5"),
        ("hero", "true"),
        ("turns", "3"),
    ];
    let said = [
        &base[..],
        &[("squad_strength", "6"), ("troopers_wounded", "0")],
    ]
    .concat();
    assert_eq!(
        exact_all(SYS, "squad_under_fire", &base),
        exact_all(SYS, "squad_under_fire", &said)
    );
}

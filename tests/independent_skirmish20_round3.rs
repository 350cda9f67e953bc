//! D20 sci-fi skirmish tables (seed `001_9921de03e7af5dba.txt`), issue 27
//! "Missing" for D20: mechanics the seed rolls dice for that krunch could
//! not answer. Every value is derived by hand from the seed (the
//! derivation and the quote beside it), never from the rule code; each
//! quote is checked against the seed text.

#[path = "common/independent.rs"]
mod independent;

use independent::{check, exact_all, seed_text};
use krunch::systems::{self, ParamValue, Params};

const SYS: &str = "skirmish20";
const SEED: &str = "001_9921de03e7af5dba.txt";

/// The error building `scenario` at `pairs` gives (it must be refused).
fn refused(scenario: &str, pairs: &[(&str, &str)]) -> String {
    let mut p = Params::new();
    for (k, v) in pairs {
        p.set(*k, ParamValue::from_text(v));
    }
    match systems::build(SYS, scenario, &p, &Params::new()) {
        Ok(_) => panic!("{scenario} {pairs:?} should be refused"),
        Err(e) => e.to_string(),
    }
}

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
/// new man: K ~ Binomial(3, 4/15). Counted as 10, the squad is shaken
/// when 2 plus K reach 5, i.e. K = 3: (4/15)^3 = 64/3375. Counted as the 8 it is (the
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

// ------------------------------------------------ the tripod set-up AP

/// MOVEMENT: "Wheeled/tripod heavy weapons cost 1AP to set up after
/// moving, and normally 2AP's to fire. So normally the best a crew can do
/// is to move 2AP's and set it up ready to fire next turn." A heavy bolter
/// ("Hvy Bolter / Chain Gun (+large blast) 24 | 10 | 6 | 3 | X | 2 | Jam")
/// at a standard-armoured target 12" away, 3 AP:
/// - set up where it stands (not moved): its 2 AP fire once at 10 or
///   less, P(hit) = 10/20, as any heavy bolter; a 20 leaves 1 AP, too few
///   to clear the jam: P(still jammed next turn) = 1/20;
/// - moved 1D6 first: 1 AP moving, 1 setting up leaves 1, too few to fire
///   a 2-AP weapon: no shot, refused like any firer left no AP to fire
///   (without the tripod: one shot at 10 - 1 = 9, 9/20);
/// - a Veteran Hero's 4 AP ("+1 AP"), moved 1D6: 1 + 1 leaves 2, one shot
///   at 9, P(hit) = 9/20, and a 20 leaves no AP to clear it: 1/20;
///   unmoved, its 2 AP left after firing clear a jam at once: 0.
#[test]
fn a_tripod_weapon_spends_an_ap_setting_up_after_moving() {
    seed_says(&[
        "Wheeled/tripod heavy weapons cost 1AP to set up after moving, and normally 2AP's to fire",
        "So normally the best a crew can do is to move 2AP's and set it up ready to fire next turn",
        "Veteran Hero +1 AP (use for moving or shooting)",
    ]);
    let gun = |extra: &[(&'static str, &'static str)]| {
        let mut p = vec![
            ("weapon", "heavy_bolter"),
            ("armour", "std"),
            ("range", "12"),
            ("weapon_tripod", "true"),
        ];
        p.extend_from_slice(extra);
        p
    };
    check(SYS, "shooting", &gun(&[]), "p_hit", 10.0 / 20.0);
    check(SYS, "shooting", &gun(&[]), "p_jammed_next_turn", 1.0 / 20.0);
    // no AP left to fire: refused as any firer with none, naming the set-up
    let e = refused("shooting", &gun(&[("moved_d6", "1")]));
    assert!(
        e.contains("firing_ap") && e.contains("setting up the tripod"),
        "{e}"
    );
    let no_tripod = [
        ("weapon", "heavy_bolter"),
        ("armour", "std"),
        ("range", "12"),
        ("moved_d6", "1"),
    ];
    check(SYS, "shooting", &no_tripod, "p_hit", 9.0 / 20.0);
    let hero = gun(&[("firer_ap", "4"), ("moved_d6", "1")]);
    check(SYS, "shooting", &hero, "p_hit", 9.0 / 20.0);
    check(SYS, "shooting", &hero, "p_jammed_next_turn", 1.0 / 20.0);
    let hero_unmoved = gun(&[("firer_ap", "4")]);
    check(SYS, "shooting", &hero_unmoved, "p_jammed_next_turn", 0.0);
}

/// "1 uninjured Human crew member is required to fire a heavy weapon":
/// the tripod's set-up is a heavy weapon's ("Wheeled/tripod heavy
/// weapons"), so a tripod rifle is refused; and 2 AP given to firing after
/// moving and setting up with 3 AP is refused, naming the set-up.
#[test]
fn a_tripod_is_a_heavy_weapons_and_its_ap_are_counted() {
    let e = refused(
        "shooting",
        &[
            ("weapon", "bolt_rifle"),
            ("armour", "std"),
            ("range", "12"),
            ("weapon_tripod", "true"),
        ],
    );
    assert!(e.contains("weapon_tripod") && e.contains("heavy"), "{e}");
    let e = refused(
        "shooting",
        &[
            ("weapon", "heavy_bolter"),
            ("armour", "std"),
            ("range", "12"),
            ("weapon_tripod", "true"),
            ("moved_d6", "1"),
            ("firing_ap", "2"),
        ],
    );
    assert!(
        e.contains("firing_ap") && e.contains("setting up the tripod"),
        "{e}"
    );
}

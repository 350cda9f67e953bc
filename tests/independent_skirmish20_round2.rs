//! D20 sci-fi skirmish tables (seed `001_9921de03e7af5dba.txt`), issue 27
//! items 9-13: blasts and templates on a squad, close combat against
//! vehicles, heavy weapons, tanks as large targets, one D20 for a whole
//! blast. Every value is derived by hand from the seed (the derivation and
//! the quote beside it) or by brute force over plain dice here, never from
//! the rule code; each quote is checked against the seed text.

#[path = "common/independent.rs"]
mod independent;

use independent::{check, exact_all, seed_text};
use krunch::systems::{self, ParamValue, Params};

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

// ------------------------------------------- item 12: tanks are large targets

/// "Remember targets like Tanks get automatic +2 to hit them as large
/// targets"; "Large Target (tanks normally +2) +1 / +2". A melta ("Melta
/// Gun (anti tank) 12 | 13 | 12 | 11 | 9 | 2 | broken": one 2-AP shot) at
/// a target in tank armour, nothing said of its size: 9 + 2 = 11 or less,
/// P(hit) = 11/20 (9/20 without the +2). Said outright, the size wins: a
/// "normal" target 9/20, a "large" one (+1) 10/20.
#[test]
fn a_target_in_tank_armour_is_a_large_target_without_saying_so() {
    seed_says(&[
        "Remember targets like Tanks get automatic +2 to hit them as large targets",
        "Large Target (tanks normally +2)",
    ]);
    let tank = [("weapon", "melta_gun"), ("armour", "tank"), ("range", "6")];
    check(SYS, "shooting", &tank, "p_hit", 11.0 / 20.0);
    // still a vehicle: wrecked on a D10 of 9 or 10
    check(SYS, "shooting", &tank, "p_vehicle_wrecked", 11.0 / 20.0 * 0.2);
    for (size, value) in [("normal", 9.0), ("large", 10.0), ("tank", 11.0)] {
        let mut p = tank.to_vec();
        p.push(("target_size", size));
        check(SYS, "shooting", &p, "p_hit", value / 20.0);
    }
    // power armour (a Chimera's) says nothing of size: no bonus unless given
    let power = [("weapon", "melta_gun"), ("armour", "power"), ("range", "6")];
    check(SYS, "shooting", &power, "p_hit", 11.0 / 20.0);
}

/// The same in a squad under fire: a bolt rifle ("Bolt Rifle 24 | 8 | 6 |
/// 4 | 1 | 1/2 | Jam") beyond half range (one 2-AP shot) at a squad of one
/// in tank armour hits on 1 + 2 = 3 or less, and kills on a 5-6 of the
/// D6: mean dead 3/20 * 1/3 (1/20 * 1/3 without the +2).
#[test]
fn a_squad_in_tank_armour_takes_the_large_target_bonus_too() {
    let p = [
        ("shooters", "1"),
        ("weapon", "bolt_rifle"),
        ("range", "20"),
        ("armour", "tank"),
        ("troopers", "1"),
        ("turns", "1"),
    ];
    check(SYS, "squad_under_fire", &p, "mean_dead", 3.0 / 20.0 / 3.0);
}

// ------------------------------------------------------ item 11: heavy weapons

/// "No wounded human can fire or help fire a heavy weapon"; "1 uninjured
/// Human crew member is required to fire a heavy weapon of any sort". A
/// wounded human with a heavy bolter ("Hvy Bolter / Chain Gun 24 | 10 | 6
/// | 3 | X | 2 | Jam": a 2-AP row, "Heavy weapons which are large weapons
/// which normally need 2AP's to fire") is refused, naming the field, in
/// both scenarios that shoot. A wounded Necron may: 10 - 2 (wounded) = 8
/// or less, one 2-AP shot, P(hit) = 8/20.
#[test]
fn no_wounded_human_fires_a_heavy_weapon() {
    seed_says(&[
        "No wounded human can fire or help fire a heavy weapon",
        "1 uninjured Human crew member is required to fire a heavy weapon of any sort",
        "Heavy weapons which are large weapons which normally need 2AP's to fire",
    ]);
    let p = [
        ("weapon", "heavy_bolter"),
        ("armour", "std"),
        ("range", "10"),
        ("firer_wounded", "true"),
    ];
    let e = refused("shooting", &p);
    assert!(
        e.contains("firer_wounded") && e.contains("No wounded human"),
        "{e}"
    );
    let mut squad = p.to_vec();
    squad.extend([("shooters", "3"), ("troopers", "5")]);
    let e = refused("squad_under_fire", &squad);
    assert!(e.contains("firer_wounded"), "{e}");
    let mut necron = p.to_vec();
    necron.push(("firer_human", "false"));
    check(SYS, "shooting", &necron, "p_hit", 8.0 / 20.0);
    // a 1-AP weapon that is not heavy still fires wounded: bolt pistol 8 - 2
    let pistol = [
        ("weapon", "bolt_pistol"),
        ("armour", "std"),
        ("range", "6"),
        ("firing_ap", "1"),
        ("firer_wounded", "true"),
    ];
    check(SYS, "shooting", &pistol, "p_hit", 6.0 / 20.0);
}

/// "1AP heavy weapons jam means miss rest of this tun only"; "All
/// vehicles, sentinels, Necron destroyers get 4AP's allowing them to move
/// very fast AND fire heavy weapons". The vehicle based chaingun ("24 | 12
/// | 9 | 7 | 4 | 1 | Jam") is a 1-AP heavy weapon: a vehicle (4 AP) that
/// moved 2D6 fires it twice; a jam on either shot (1/20 + 19/20 * 1/20)
/// leaves fewer than the "2AP's effort to unjam" (1 AP, or none), yet is
/// over with the turn: P(still jammed next turn) = 0. The same row, not
/// heavy, carries either jam over: 1/20 + 19/400.
#[test]
fn a_one_ap_heavy_weapons_jam_ends_with_the_turn() {
    seed_says(&[
        "1AP heavy weapons jam means miss rest of this tun only",
        "Vehicle based chaingun (+small area)",
    ]);
    let p = [
        ("weapon", "vehicle_chaingun"),
        ("armour", "std"),
        ("range", "10"),
        ("firer_ap", "4"),
        ("moved_d6", "2"),
        ("firer_in_vehicle", "true"),
    ];
    check(SYS, "shooting", &p, "p_jam", 1.0 / 20.0 + 19.0 / 400.0);
    check(SYS, "shooting", &p, "p_jammed_next_turn", 0.0);
    let mut light = p.to_vec();
    light.push(("weapon_heavy", "false"));
    check(
        SYS,
        "shooting",
        &light,
        "p_jammed_next_turn",
        1.0 / 20.0 + 19.0 / 400.0,
    );
}

/// ASSAULT: "If the targets card has not been drawn yet they can shoot
/// with hand guns or shoulder weapons but with a negative modifier ... If
/// armed with Heavy weapons they may not fire." The Necron Destroyer gun
/// ("+ small blast", 1 AP, a destroyer's heavy weapon) is refused.
#[test]
fn an_assaulted_destroyer_may_not_fire_its_heavy_gun() {
    seed_says(&["If armed with Heavy weapons they may not fire"]);
    let p = [
        ("weapon", "necron_destroyer_gun"),
        ("armour", "std"),
        ("range", "10"),
        ("firer_ap", "4"),
        ("assaulted_before_turn", "true"),
    ];
    let e = refused("shooting", &p);
    assert!(e.contains("assaulted_before_turn"), "{e}");
}

// ------------------------------------- item 10: close combat against vehicles

/// "APC's and Tanks can not do close assaults of any sort whatsoever";
/// "Against a walker or vehicle this number is upped to 5"; hits on a
/// vehicle go on the Vehicle Damage Table ("1-2 Bounce off ... 7 Vehicle
/// immobilised ... 9 Vehicle Burns ... 10 Vehicle explodes"). One veteran
/// with anti-tank grenades ("Anti Tank Grenades n/a | 7 | 6 | 5") against
/// a tank: 5 or less, P(hit) = 1/4; wrecked on a D10 of 9-10 (1/4 * 2/10),
/// immobilised on 7-10 (1/4 * 4/10); the tank strikes no blow, so the
/// attacker is never hurt. Two of them: two hits (1/16) wreck it with 0.40
/// (a 9 or 10 on either D10, or an 8 then a 5-8 that goes up to 9: 0.2 +
/// 0.8 * 0.2 + 0.1 * 0.4), one hit (2 * 1/4 * 3/4) with 0.2: 0.025 + 0.075.
#[test]
fn a_tank_assaulted_takes_vehicle_damage_and_strikes_no_blow() {
    seed_says(&[
        "APC's and Tanks can not do close assaults of any sort whatsoever",
        "Against a walker or vehicle this number is upped to 5",
        "If the damage has already been suffered, then take the next up, keep going up",
    ]);
    let one = [
        ("attacker", "anti_tank_grenades"),
        ("attacker_armour", "std"),
        ("defender_armour", "tank"),
    ];
    check(SYS, "close_combat", &one, "mean_hits_on_defender", 0.25);
    check(SYS, "close_combat", &one, "p_vehicle_wrecked", 0.25 * 0.2);
    check(SYS, "close_combat", &one, "p_vehicle_immobilised", 0.25 * 0.4);
    check(SYS, "close_combat", &one, "p_attacker_dead", 0.0);
    check(SYS, "close_combat", &one, "p_attacker_wounded", 0.0);
    let names: Vec<String> = exact_all(SYS, "close_combat", &one)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert!(
        !names.iter().any(|n| n == "p_defender_dead"),
        "a tank is not a figure: {names:?}"
    );
    let mut two = one.to_vec();
    two.push(("attackers", "2"));
    check(
        SYS,
        "close_combat",
        &two,
        "p_vehicle_wrecked",
        2.0 * 0.25 * 0.75 * 0.2 + 0.0625 * 0.40,
    );
    // five attackers against a vehicle, not more
    let mut five = one.to_vec();
    five.push(("attackers", "5"));
    check(SYS, "close_combat", &five, "mean_hits_on_defender", 1.25);
    // a tank given a weapon to strike back with is refused
    let mut armed = one.to_vec();
    armed.push(("defender", "heavy_weapon"));
    let e = refused("close_combat", &armed);
    assert!(e.contains("can not do close assaults"), "{e}");
    // so is a tank that assaults
    let e = refused(
        "close_combat",
        &[
            ("attacker", "heavy_weapon"),
            ("attacker_armour", "tank"),
            ("defender", "hand_weapon"),
            ("defender_armour", "std"),
        ],
    );
    assert!(e.contains("attacker_armour"), "{e}");
}

/// A power-armoured APC (a Chimera: "Power + APC" column) said to be a
/// vehicle: hand weapons ("Hand Weapon 8 | 6 | 3 | 1") hit on 3 or less,
/// and the Chimera strikes no blow. A walker is a vehicle that fights:
/// "Sentinel or other walker destroy any target smaller than them on a
/// roll of "10" or less. (and get 2 attacks) No roll for injury, auto
/// dead": it kills the one Guardsman striking it with either of two D20s
/// of 10 or less (1 - 1/4), and his hand weapon's 3 or less (3/20) rolls
/// on the Vehicle Damage Table: wrecked 3/20 * 2/10.
#[test]
fn an_apc_strikes_no_blow_and_a_walker_does() {
    seed_says(&[
        "Sentinel or other walker destroy any target smaller than them on a roll of \"10\" or less. (and get 2 attacks) No roll for injury, auto dead",
        "Power + APC",
    ]);
    let apc = [
        ("attacker", "hand_weapon"),
        ("attacker_armour", "std"),
        ("defender_armour", "power"),
        ("defender_vehicle", "true"),
    ];
    check(SYS, "close_combat", &apc, "mean_hits_on_defender", 3.0 / 20.0);
    check(SYS, "close_combat", &apc, "p_attacker_dead", 0.0);
    check(SYS, "close_combat", &apc, "p_vehicle_wrecked", 3.0 / 20.0 * 0.2);
    let walker = [
        ("attacker", "hand_weapon"),
        ("attacker_armour", "std"),
        ("defender", "walker"),
        ("defender_armour", "power"),
        ("defender_vehicle", "true"),
        ("defender_minor_guns", "0"),
    ];
    check(SYS, "close_combat", &walker, "p_attacker_dead", 0.75);
    check(SYS, "close_combat", &walker, "p_vehicle_wrecked", 3.0 / 20.0 * 0.2);
}

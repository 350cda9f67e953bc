//! Crisis `fight` with ammunition (`cap`, `reload_ap`, `loaded`; seed
//! `003_e08bb638dba16bed.txt`): expected values derived by hand from the
//! seed text, never from the rule code; krunch's numbers come only through
//! the public build entry and its exact evaluator
//! ([`independent::exact_all`]).
//!
//! What the seed says of ammunition (RoF): "Using a higher RoF also uses
//! up more bullets (CAP)." (one round an Attack roll), and (Actions in
//! parallel) "while reloading you can still give short commands": a
//! reload is an action, and "Every Action in a Crisis requires Action
//! Points". Action Points: "At the start of each turn, including the
//! beginning of a Crisis, the character recovers 4 AP"; "Any AP over 6 are
//! lost, while Actions that require more than the remaining AP are
//! disabled until enough AP are accumulated". The seed gives no reload
//! cost: `reload_ap` (default 1). A reload fills the weapon to its CAP;
//! reloading is the player's choice, timed to win (fewest expected turns).
//! Ranged Attacks: "The Difficulty Level to hit is a 4"; a Skill roll is
//! 2D6 + skill (the registry's reading of the dice the chapter never
//! gives).

#[path = "common/independent.rs"]
mod independent;

use independent::{TOL, exact_all, metric};

const SYS: &str = "crisis";

#[track_caller]
fn close(all: &[(String, f64)], name: &str, want: f64) {
    let got = metric(all, name);
    assert!(
        (got - want).abs() < TOL,
        "{name}: krunch {got:.15}, derived {want:.15}"
    );
}

/// A CAP 1 pistol whose reload costs 4 AP, skill 0, damage 4 at a target
/// of Health 4 without armour: every hit takes Health to 0 or less
/// ("Dying"), so the fight ends with the first hit; a hit needs 4+ on 2D6
/// (33/36 = 11/12), a miss is m = 1/12. One attack (1 AP) a turn:
/// - turn 1: 4 AP, loaded: shoot, 3 AP left, empty (a reload after it
///   needs 4: "disabled");
/// - turn 2: 3 + 4 = 7, "Any AP over 6 are lost": 6; reload (4), shoot
///   (1), 1 left;
/// - turn 3: 5; reload, shoot, 0 left;
/// - turn 4: 4: a reload leaves 0, no shot this turn whatever is chosen
///   (reloading now, or carrying 4 to have 6 next turn and 1 after:
///   a shot short on turn 7);
/// - turn 5: reloaded and 4 AP: shoot, 3 left: as after turn 1.
///
/// Shots on turns 1, 2, 3, then 5, 6, 7, then 9 ...: P(not over after t
/// turns) = m^(shots by t): 1, m, m^2, m^3, m^3, m^4, ... so the mean
/// turns are (1 + m + m^2 + m^3) / (1 - m^3) = 1885/1727 (12/11 without
/// the CAP), P(over after 4 turns) = 0 and after 5 m^3 * 11/12 =
/// 11/20736.
#[test]
fn a_one_round_pistol_shoots_three_turns_in_four() {
    let base = [("skill", "0"), ("damage", "4"), ("target_health", "4")];
    let free = exact_all(SYS, "fight", &base);
    close(&free, "mean_turns", 12.0 / 11.0);
    let pistol = exact_all(
        SYS,
        "fight",
        &[&base[..], &[("cap", "1"), ("reload_ap", "4")]].concat(),
    );
    close(&pistol, "mean_turns", 1885.0 / 1727.0);
    close(&pistol, "turns=1", 11.0 / 12.0);
    close(&pistol, "turns=2", 11.0 / 144.0);
    close(&pistol, "turns=3", 11.0 / 1728.0);
    close(&pistol, "turns=4", 0.0);
    close(&pistol, "turns=5", 11.0 / 20736.0);
    close(&pistol, "p_dying", 1.0);
    // shoot, reload, shoot: a 1-AP reload is paid every turn from the AP
    // the cap would take (4 a turn; a shot and a reload cost 2): no turn
    // is lost, the fight is the one without a CAP
    let cheap = exact_all(SYS, "fight", &[&base[..], &[("cap", "1")]].concat());
    close(&cheap, "mean_turns", 12.0 / 11.0);
    // empty at the start: turn 1 reloads (1 AP) and shoots (1 AP)
    let empty = exact_all(
        SYS,
        "fight",
        &[&base[..], &[("cap", "1"), ("loaded", "0")]].concat(),
    );
    close(&empty, "mean_turns", 12.0 / 11.0);
}

/// A RoF 3 gun with CAP 2 firing "all" it can: 2 rounds, so 2 attacks a
/// turn ("Using a higher RoF also uses up more bullets (CAP)"), 2 AP (1 +
/// 1); the 1-AP reload comes out of the AP left (4 - 2 = 2 on turn 1,
/// then 5 - 2 and 6 - 2): every turn starts with 2 rounds. It is the RoF
/// 2 gun's fight, metric for metric, against an armoured target.
#[test]
fn a_cap_2_gun_fires_as_rof_2() {
    let base = [
        ("skill", "2"),
        ("damage", "4"),
        ("target_health", "8"),
        ("armour_dr", "2"),
        ("armour_durability", "6"),
        ("policy", "all"),
    ];
    let rof2 = exact_all(SYS, "fight", &[&base[..], &[("rof", "2")]].concat());
    let cap2 = exact_all(
        SYS,
        "fight",
        &[&base[..], &[("rof", "3"), ("cap", "2")]].concat(),
    );
    let rof3 = exact_all(SYS, "fight", &[&base[..], &[("rof", "3")]].concat());
    assert_eq!(rof2.len(), cap2.len());
    for (name, want) in &rof2 {
        close(&cap2, name, *want);
    }
    // and not the RoF 3 gun's (3 attacks a turn)
    assert!(metric(&rof3, "mean_turns") < metric(&cap2, "mean_turns") - 1e-3);
}

/// A weapon whose CAP outlasts any fight that can still be going: the
/// fight of today, metric for metric (the fight scenario's own test
/// points). At CAP 100 the fight must still be going after 100 attacks
/// before a reload can cost anything; at these points every attack lands
/// with 7/12 or more (melee: 2D6 + 1 against Parry 8) and none needs more
/// than a dozen landings, so that chance is below 1e-20 and every value
/// agrees to 1e-12.
#[test]
fn a_large_cap_is_the_fight_without_one() {
    let points: [&[(&str, &str)]; 4] = [
        &[
            ("skill", "2"),
            ("damage", "4"),
            ("target_health", "8"),
            ("armour_dr", "2"),
            ("armour_durability", "6"),
            ("rof", "3"),
            ("attack_ap", "2"),
            ("policy", "all"),
        ],
        &[
            ("skill", "1"),
            ("kind", "melee"),
            ("target_parry", "8"),
            ("damage", "3"),
            ("target_health", "5"),
            ("armour_dr", "3"),
            ("armour_durability", "4"),
        ],
        &[
            ("skill", "3"),
            ("damage", "9"),
            ("target_health", "6"),
            ("armour_dr", "1"),
            ("armour_durability", "2"),
            ("rof", "3"),
            ("attack_ap", "2"),
            ("policy", "best"),
            ("intent", "knock_out"),
        ],
        &[
            ("skill", "2"),
            ("kind", "area"),
            ("damage", "3"),
            ("target_health", "4"),
            ("target_athletics", "3"),
        ],
    ];
    for point in points {
        let today = exact_all(SYS, "fight", point);
        let loaded = exact_all(SYS, "fight", &[point, &[("cap", "100")]].concat());
        assert_eq!(today.len(), loaded.len());
        for (name, want) in &today {
            close(&loaded, name, *want);
        }
    }
}

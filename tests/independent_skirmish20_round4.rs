//! skirmish20 round 15 (seed `001_9921de03e7af5dba.txt`): firing from
//! Overwatch at an assaulter (`overwatch`). Expected values are derived by
//! hand from the seed text, never from the rule code; krunch's numbers come
//! only through the public build entry and its exact evaluator
//! ([`independent::check`]).
//!
//! Rules used throughout (seed sentences):
//! - OVERWATCH: "They may interrupt these units movement and fire upon
//!   them, (max 2AP's)"; ASSAULT: "If the target (or any other squad in
//!   line of sight) is on OVERWATCH then they may fire at the assaulting
//!   squad on the way in."
//! - To hit: "Roll 1D20 and score less than or equal to the figure";
//!   "you always get a hit on a 1"; an unmodified 20 jams and that
//!   weapon fires no more this turn. The Hvy Bolter's row "24 | 10 | 6 |
//!   3 | X | 2 | Jam" (10 or less against standard armour, one 2-AP
//!   firing); the Bolt Pistol's "12 | 8 | 5 | 3 | X | 1 | Jam" (3 or less
//!   against power armour, two 1-AP firings).
//! - "Target Moving >3" or Under Cover -2"; "1 AP buys you 1D6" of
//!   movement. roll the dice see how far you can move up to".
//! - Effect of Hit Chart (D6), a common trooper: 1-2 Duck Back, 3-4
//!   Wounded, 5-6 Dead; a second wound kills. "Duck-Back means the target
//!   must spend the rest of this turn cowering behind cover ... may not
//!   ... move other than to take cover" (so the charge stops); "Necrons,
//!   Tyrannids and War Droids of all types are not affected by Duck Backs".
//! - Close combat: "everyone rolls simultaneously for damage"; Hand Weapon
//!   against standard armour 8 (D20 at or under); "If at the end of the
//!   close combat the side that suffered most casualties has at least 50%
//!   dead or wounded then roll 1D6. on a roll of 1,2,3 they run away".

#[path = "common/independent.rs"]
mod independent;

use independent::check;

const SYS: &str = "skirmish20";

/// One trooper on Overwatch with a heavy bolter at a trooper in standard
/// armour charging 1D6" at a figure 1" away (always there, never more than
/// 3" moved), both with hand weapons.
fn heavy_bolter_at(distance: &'static str) -> Vec<(&'static str, &'static str)> {
    vec![
        ("weapon", "heavy_bolter"),
        ("range", "12"),
        ("armour", "std"),
        ("charge_d6", "1"),
        ("charge_distance", distance),
        ("attacker", "hand_weapon"),
        ("attacker_armour", "std"),
        ("defender", "hand_weapon"),
        ("defender_armour", "std"),
    ]
}

/// The heavy bolter hits on 1-10 (1/2); a hit kills on 5-6 and ducks back
/// on 1-2 (1/3 each): stopped 1/3. The assault: the assaulter arrives
/// unhurt 1/2, wounded 1/6; each side's hand weapon hits on 8 or less
/// (2/5).
#[test]
fn overwatch_fire_stops_a_third_of_the_charges() {
    let p = heavy_bolter_at("1");
    check(SYS, "overwatch", &p, "p_stopped", 1.0 / 3.0);
    check(SYS, "overwatch", &p, "p_shot_dead", 1.0 / 6.0);
    check(SYS, "overwatch", &p, "p_ducked_back", 1.0 / 6.0);
    check(SYS, "overwatch", &p, "p_fell_short", 0.0);
    check(SYS, "overwatch", &p, "p_arrives_wounded", 1.0 / 6.0);
    check(SYS, "overwatch", &p, "mean_hits", 0.5);
    check(SYS, "overwatch", &p, "p_jam", 1.0 / 20.0);
    // the defender dies: arrives (2/3), hits (2/5), a 5-6 (1/3)
    check(SYS, "overwatch", &p, "p_defender_dead", 4.0 / 45.0);
    check(SYS, "overwatch", &p, "p_defender_wounded", 4.0 / 45.0);
    // shot dead 1/6; arrived unhurt (1/2) and killed 2/15; arrived
    // wounded (1/6) and wounded again or killed 4/15
    let dead = 1.0 / 6.0 + 0.5 * 2.0 / 15.0 + 1.0 / 6.0 * 4.0 / 15.0;
    check(SYS, "overwatch", &p, "p_assaulter_dead", dead);
    assert!((dead - 5.0 / 18.0).abs() < 1e-12);
    // the aftermath: the defender alone wounded tests (the assaulter
    // arrived unhurt and stayed so, 11/15), 1-3 runs
    check(
        SYS,
        "overwatch",
        &p,
        "p_defender_runs",
        0.5 * (2.0 / 15.0) * (11.0 / 15.0) * 0.5,
    );
    // the assaulter alone wounded tests, its wound from the way in
    // counting ("at least 50% dead or wounded"): wounded in the fight
    // after arriving unhurt, or arrived wounded and not struck again
    // (11/15), the defender unhurt or ducked (11/15)
    let runs = (0.5 * 2.0 / 15.0 + 1.0 / 6.0 * 11.0 / 15.0) * (11.0 / 15.0) * 0.5;
    check(SYS, "overwatch", &p, "p_assaulter_runs", runs);
    assert!((runs - 187.0 / 2700.0).abs() < 1e-12);
}

/// Charging 1D6" at a figure 4" away: a 4-6 reaches it having moved more
/// than 3" (-2: the bolter hits on 8 or less), a 1-3 falls short having
/// moved no more than 3" (10 or less).
#[test]
fn a_charge_over_three_inches_is_harder_to_hit_and_may_fall_short() {
    let p = heavy_bolter_at("4");
    let down_slow = 10.0 / 20.0 * 2.0 / 3.0;
    let down_fast = 8.0 / 20.0 * 2.0 / 3.0;
    check(
        SYS,
        "overwatch",
        &p,
        "p_fell_short",
        0.5 * (1.0 - down_slow),
    );
    check(
        SYS,
        "overwatch",
        &p,
        "p_shot_dead",
        0.5 * 10.0 / 20.0 / 3.0 + 0.5 * 8.0 / 20.0 / 3.0,
    );
    let stopped = 1.0 - 0.5 * (1.0 - down_fast);
    check(SYS, "overwatch", &p, "p_stopped", stopped);
    assert!((stopped - 19.0 / 30.0).abs() < 1e-12);
}

/// A bolt pistol's two 1-AP firings at a figure in power armour (3 or
/// less; a 20 jams and ends the fire): a Necron Warrior ignores the Duck
/// Back and is stopped only dead; a trooper's Duck Back stops the charge
/// and the fire at it.
#[test]
fn necrons_ignore_the_duck_back_that_stops_a_trooper() {
    let mut p = vec![
        ("weapon", "bolt_pistol"),
        ("range", "8"),
        ("armour", "power"),
        ("charge_d6", "1"),
        ("charge_distance", "1"),
        ("attacker", "necron_warrior"),
        ("attacker_armour", "power"),
        ("attacker_ignores_duck_backs", "true"),
        ("defender", "hand_weapon"),
        ("defender_armour", "std"),
    ];
    // first firing: dead 1/20, wounded 1/20, ducked 1/20, miss 16/20,
    // jam 1/20; the second from unhurt kills 1/20, from wounded 2/20
    let dead = 1.0 / 20.0 + 1.0 / 20.0 * 2.0 / 20.0 + 17.0 / 20.0 * 1.0 / 20.0;
    check(SYS, "overwatch", &p, "p_shot_dead", dead);
    check(SYS, "overwatch", &p, "p_stopped", 39.0 / 400.0);
    check(SYS, "overwatch", &p, "p_ducked_back", 0.0);
    p[7] = ("attacker_ignores_duck_backs", "false");
    check(SYS, "overwatch", &p, "p_shot_dead", 38.0 / 400.0);
    check(
        SYS,
        "overwatch",
        &p,
        "p_ducked_back",
        1.0 / 20.0 + 1.0 / 400.0 + 16.0 / 400.0,
    );
    check(SYS, "overwatch", &p, "p_stopped", 75.0 / 400.0);
}

// ------------------------------------------------------------ Ambidextrous

/// SPECIAL SKILLS: "Ambidextrous | Can fire two hand guns at same target
/// for one AP". Two Bolt Pistols ("12 | 8 | 5 | 3 | X | 1 | Jam": 8 or less
/// against standard armour, 1 AP) with 3 AP, 2 on firing: each AP fires
/// both, each gun its own D20; a gun's 20 jams that gun, the other fires
/// on. Each gun's hits: 2 with 0.4 x 0.4, 1 with 0.4 x 0.6 + 0.55 x 0.4,
/// else 0; the target (a common trooper) dies after h hits with 1 - (1 +
/// h)/3^h (none dead and at most one wound: duck backs, or one wound).
#[test]
fn ambidextrous_fires_two_pistols_for_each_ap() {
    let one = [("weapon", "bolt_pistol"), ("armour", "std"), ("range", "8")];
    let two = [one.as_slice(), &[("ambidextrous", "true")]].concat();
    let gun = [0.38, 0.46, 0.16];
    let dead = |h: i32| 1.0 - f64::from(1 + h) / 3f64.powi(h);
    let mut p_dead = 0.0;
    let mut p_hit = 0.0;
    for (a, pa) in gun.iter().enumerate() {
        for (b, pb) in gun.iter().enumerate() {
            let h = (a + b) as i32;
            p_dead += pa * pb * dead(h);
            if h > 0 {
                p_hit += pa * pb;
            }
        }
    }
    check(SYS, "shooting", &two, "p_dead", p_dead);
    check(SYS, "shooting", &two, "p_hit", p_hit);
    check(SYS, "shooting", &two, "mean_hits", 2.0 * 0.78);
    check(SYS, "shooting", &one, "mean_hits", 0.78);
    // a 20 on any of the four D20s (a gun stopped rolls no more)
    let jam = 1.0 - (19.0f64 / 20.0).powi(4);
    check(SYS, "shooting", &two, "p_jam", jam);
    // a jam left: both guns jammed on the first AP leave 2 AP for one of
    // them; otherwise 1 AP is left after the second, too few to clear:
    // every jam carries (one gun alone: a jam on its second shot, 19/400)
    check(SYS, "shooting", &two, "p_jammed_next_turn", jam);
    check(SYS, "shooting", &one, "p_jammed_next_turn", 19.0 / 400.0);
    check(
        SYS,
        "shooting",
        &two,
        "mean_shots",
        2.0 * (1.0 + 19.0 / 20.0),
    );
}

/// Moving 2D6 first leaves 1 AP, spent on firing: the two guns fire once
/// each; a jam then has 1 AP left and carries over.
#[test]
fn ambidextrous_after_moving_fires_each_gun_once() {
    let two = [
        ("weapon", "bolt_pistol"),
        ("armour", "std"),
        ("range", "8"),
        ("moved_d6", "2"),
        ("ambidextrous", "true"),
    ];
    // 8 - 2 for moving 2D6: 6 or less
    let miss = 1.0 - 6.0 / 20.0;
    check(SYS, "shooting", &two, "p_hit", 1.0 - miss * miss);
    check(
        SYS,
        "shooting",
        &two,
        "p_jammed_next_turn",
        1.0 - (19.0f64 / 20.0).powi(2),
    );
}

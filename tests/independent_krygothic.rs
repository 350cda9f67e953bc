//! Kry-Gothic (seed `000_e9ab87dd866033e2.txt`): exact values derived by
//! hand from the seed text, or by brute force over raw dice here, never
//! from the rule code, compared with krunch's exact evaluator.
//!
//! Two readings recur. "Rolling attribute checks": "roll the amount of dice
//! as per the attribute number ... and compare the highest roll to the
//! target number", so P(pass) = 1 - P(every die misses). "Rolling for 7+
//! targets": "you must first achieve a roll of 6 on one your dice. Any dice
//! that roll a 6, re-roll them and compare them to the list below: 7+:
//! Pass on a roll of 3 or higher, 8+: 4 or higher, 9+: 5 or higher, 10+: 6
//! or higher, 11+: You need a roll of a 6, then a second 6, then a 3 or
//! higher" (the `table` reading, the default); the `additive` reading adds
//! the re-roll to the 6 as "Rolling 6's" does.

#[path = "common/independent.rs"]
mod independent;

use independent::{check, check_with, prob};

const SYS: &str = "krygothic";

/// P(one die meets `target`) under the `table` reading, from the seed's
/// list: a 6, then target - 4 on the re-roll, recursively.
fn die_table(target: i64) -> f64 {
    if target <= 1 {
        1.0
    } else if target <= 6 {
        (7 - target) as f64 / 6.0
    } else {
        die_table(target - 4) / 6.0
    }
}

/// P(the highest of `n` dice meets `target`) (table reading).
fn attribute(n: i32, target: i64) -> f64 {
    1.0 - (1.0 - die_table(target)).powi(n)
}

#[test]
fn the_seed_list_of_7_plus_targets() {
    // "7+: Pass on a roll of 3 or higher" after the 6; "11+: ... a 6, then a
    // second 6, then a 3 or higher".
    assert!((die_table(7) - 4.0 / 36.0).abs() < 1e-15);
    assert!((die_table(10) - 1.0 / 36.0).abs() < 1e-15);
    assert!((die_table(11) - 4.0 / 216.0).abs() < 1e-15);
}

// --------------------------------------------------------------------- dice

/// One die at 7+ and 11+ under both readings: table 7+ = 1/6 * 4/6;
/// additive 7+ = a 6 then anything (6 + 1 >= 7) = 1/6; table 11+ = 4/216;
/// additive 11+ = a 6, then 5 or 6 = 2/36.
#[test]
fn dice_seven_plus_both_readings() {
    fn die(t: &str) -> [(&str, &str); 2] {
        [("check", "die"), ("target", t)]
    }
    check(SYS, "dice", &die("7"), "p_pass", 4.0 / 36.0);
    check(SYS, "dice", &die("11"), "p_pass", 4.0 / 216.0);
    let add = [("seven_plus", "additive")];
    check_with(SYS, "dice", &die("7"), &add, "p_pass", 1.0 / 6.0);
    check_with(SYS, "dice", &die("11"), &add, "p_pass", 2.0 / 36.0);
}

/// Attribute check: "the model has 2 strength, the player rolls 2 dice and
/// takes the highest": 3 dice against 4 pass unless all three show 1-3.
#[test]
fn dice_attribute_check() {
    let pairs = [("check", "attribute"), ("dice", "3"), ("target", "4")];
    check(SYS, "dice", &pairs, "p_pass", 7.0 / 8.0);
    let pairs = [("check", "attribute"), ("dice", "2"), ("target", "8")];
    check(
        SYS,
        "dice",
        &pairs,
        "p_pass",
        1.0 - (1.0 - 3.0 / 36.0f64).powi(2),
    );
}

/// "The Keep dice ... 4K3 ... he rolls 6, 5, 5, 2. He chooses to keep the 6
/// and the two 5's, giving him a total of 16" (no explosion): brute force
/// over 4D6, the best three summed.
#[test]
fn dice_keep_4k3_without_exploding() {
    let best3 = |r: &[u32]| {
        let mut v = r.to_vec();
        v.sort_unstable();
        v[1] + v[2] + v[3]
    };
    let pairs = [
        ("check", "keep"),
        ("dice", "4"),
        ("keep", "3"),
        ("target", "16"),
        ("explode", "false"),
    ];
    check(
        SYS,
        "dice",
        &pairs,
        "p_pass",
        prob(4, 6, |r| best3(r) >= 16),
    );
    let mean = independent::mean(4, 6, |r| best3(r) as f64);
    check(SYS, "dice", &pairs, "mean_total", mean);
    assert!((mean - 15869.0 / 1296.0).abs() < 1e-12);
}

/// Exploding keep, 1K1: "Whenever a 6 is rolled, the player can re-roll
/// that dice and add the new roll to the 6": E = 3.5 + E/6, so E = 4.2;
/// P(total >= 8) = a 6, then 2+ = 5/36.
#[test]
fn dice_keep_exploding_one_die() {
    let pairs = [
        ("check", "keep"),
        ("dice", "1"),
        ("keep", "1"),
        ("target", "8"),
    ];
    check(SYS, "dice", &pairs, "p_pass", 5.0 / 36.0);
    // krunch cuts the chain of sixes off after a few re-rolls (6^-10 or so
    // of the mass); the mean is off by that tail times its size.
    independent::check_tol(SYS, "dice", &pairs, "mean_total", 4.2, 1e-7);
}

// ------------------------------------------------------------------ pinning

/// "Unit was hit by a ranged attack: Take the units WILL stat, and roll
/// against target 5. Increase the target number by 1 for every unit over
/// the first that is also firing": 3 shooters, target 7 (a 6 then 3+,
/// 1/9 a die); WILL 2 passes 1 - (8/9)^2 = 17/81. "you can spend a single
/// AP to re-roll the WILL roll ... as many times as the player wishes":
/// still pinned after B re-rolls = (64/81)^(B+1); AP spent = sum_{k=1..B}
/// (64/81)^k.
#[test]
fn pinning_three_shooters_target_7() {
    let pairs = [("will", "2"), ("shooters", "3"), ("ap_budget", "3")];
    let q: f64 = 64.0 / 81.0;
    check(SYS, "pinning", &pairs, "p_test", 1.0);
    check(SYS, "pinning", &pairs, "p_pinned", q);
    check(SYS, "pinning", &pairs, "p_still_pinned", q.powi(4));
    check(
        SYS,
        "pinning",
        &pairs,
        "mean_ap_spent",
        q + q * q + q.powi(3),
    );
    check(SYS, "pinning", &pairs, "ap_spent=3", q.powi(3));
    assert!((attribute(2, 7) - 17.0 / 81.0).abs() < 1e-15);
}

/// "Unit was shot at, but not hit: If a unit is shot by 2 or more
/// different units ... make a WILL roll against target 3": one shooter
/// that misses causes no test; two do, WILL 1 fails on 1-2 (1/3). "Note
/// that Squad leaders can never be pinned."
#[test]
fn pinning_missed_and_squad_leaders() {
    let one = [("will", "1"), ("shot", "missed"), ("shooters", "1")];
    check(SYS, "pinning", &one, "p_test", 0.0);
    check(SYS, "pinning", &one, "p_pinned", 0.0);
    let two = [("will", "1"), ("shot", "missed"), ("shooters", "2")];
    check(SYS, "pinning", &two, "p_pinned", 1.0 / 3.0);
    let leader = [("will", "1"), ("shooters", "4"), ("squad_leader", "true")];
    check(SYS, "pinning", &leader, "p_pinned", 0.0);
}

/// Example #1: "A unit is trying to run for cover when it is shot at by
/// two elite units from the other team. The unit is struck by incoming
/// fire ... A WILL roll of 4 dice (4 is the units WILL attribut) is made at
/// target 5": pinned when no die of four reaches 5, (4/6)^4 = 16/81
/// (variant `pinning_hit = "example"`). The rule, "two units firing give a
/// target number of 6 instead of 5" (the default): no die of four shows a
/// 6, (5/6)^4 = 625/1296. The example's count goes on from the third unit
/// (+1 each, as Example #2's "base 3 for the second unit firing, +1 for
/// the third"): four units, target 7 (a 6 then 3+, 1/9 a die), (8/9)^4.
#[test]
fn pinning_example_1_two_elite_units() {
    let pairs = [("will", "4"), ("shooters", "2"), ("ap_budget", "0")];
    let example = [("pinning_hit", "example")];
    check_with(SYS, "pinning", &pairs, &example, "p_pinned", 16.0 / 81.0);
    check(SYS, "pinning", &pairs, "p_pinned", 625.0 / 1296.0);
    let four = [("will", "4"), ("shooters", "4"), ("ap_budget", "0")];
    let q = 8.0f64 / 9.0;
    check_with(SYS, "pinning", &four, &example, "p_pinned", q.powi(4));
    assert!((1.0 - attribute(4, 7) - q.powi(4)).abs() < 1e-15);
    // one unit firing: target 5 under both readings
    let one = [("will", "4"), ("shooters", "1"), ("ap_budget", "0")];
    check_with(SYS, "pinning", &one, &example, "p_pinned", 16.0 / 81.0);
    check(SYS, "pinning", &one, "p_pinned", 16.0 / 81.0);
}

// --------------------------------------------------------------------- fear

/// "Any time a unit moves in to attack a fear causing unit in close
/// combat ... a willpower roll must be made against 6": WILL 3 fails when
/// no die shows a 6, (5/6)^3.
#[test]
fn fear_will_against_6() {
    check(SYS, "fear", &[("will", "3")], "p_fail", 125.0 / 216.0);
    check(SYS, "fear", &[("will", "1")], "p_fail", 5.0 / 6.0);
}

/// "Pure horror ... halve the non-horror causing units WILL attribute
/// (rounded down), and roll against a target number of 6 ... (The
/// following effect is only applied to those who have a willpower
/// attribute of 2 or less) The unit that failed the WILL test must roll a
/// single D6. On a 6, the unit moves 4 inches in a random direction".
/// WILL 2 rolls 1 die: fails 5/6, moves 5/36. WILL 7 rolls 3 dice: fails
/// (5/6)^3 and never moves (7 and 3 both above 2).
#[test]
fn fear_pure_horror_halves_will() {
    let two = [("will", "2"), ("cause", "pure_horror")];
    check(SYS, "fear", &two, "p_fail", 5.0 / 6.0);
    check(SYS, "fear", &two, "p_random_move", 5.0 / 36.0);
    let seven = [("will", "7"), ("cause", "pure_horror")];
    check(SYS, "fear", &seven, "p_fail", 125.0 / 216.0);
    check(SYS, "fear", &seven, "p_random_move", 0.0);
}

/// Which WILL the random move reads (the variant `horror_move`): WILL 5
/// tests 2 dice (5 halved, rounded down), fails (5/6)^2. The unit's WILL
/// attribute, 5, is above 2: no move (the default); the halved WILL, 2, is
/// not: moves on a 6 after a failure, 25/36 * 1/6.
#[test]
fn fear_pure_horror_random_move_both_readings() {
    let five = [("will", "5"), ("cause", "pure_horror")];
    check(SYS, "fear", &five, "p_fail", 25.0 / 36.0);
    check(SYS, "fear", &five, "p_random_move", 0.0);
    let halved = [("horror_move", "halved")];
    check_with(SYS, "fear", &five, &halved, "p_fail", 25.0 / 36.0);
    check_with(SYS, "fear", &five, &halved, "p_random_move", 25.0 / 216.0);
    let six = [("will", "6"), ("cause", "pure_horror")];
    check_with(SYS, "fear", &six, &halved, "p_random_move", 0.0);
}

// ------------------------------------------------------------ action points

/// "Roll 1D6 per Squad Leader. Highest D6 roll + Tactics Rating - scenario
/// modifiers"; "Ralim, Protarian >>> 15". Two leaders: E[max of 2D6] =
/// 161/36; P(highest is 6) = 11/36.
#[test]
fn action_points_ralim_two_leaders() {
    let pairs = [("team", "ralim"), ("squad_leaders", "2")];
    check(SYS, "action_points", &pairs, "mean_ap", 15.0 + 161.0 / 36.0);
    check(SYS, "action_points", &pairs, "ap=21", 11.0 / 36.0);
    check(SYS, "action_points", &pairs, "ap=16", 1.0 / 36.0);
}

/// Every row of the Loses and Triumph tables at once, tactics 10, one
/// leader: "lost over 50% of your army -5 AP", "squad leader has been
/// killed -5AP (If 50% of army has been lost as well, just count -5AP)",
/// "lost any Willpower rolls - 2 AP", "damaged by their own side -1AP",
/// "killed an enemy squad leader +2 AP", "completed a command combo. +1AP
/// per 4 commands" (9 commands: +2), "interrupted a command combo. +3 AP",
/// "You caused the first wound. +2 AP": -5 - 2 - 1 + 2 + 2 + 3 + 2 = +1.
#[test]
fn action_points_every_loss_and_triumph() {
    let pairs = [
        ("tactics", "10"),
        ("lost_half_army", "true"),
        ("squad_leader_killed", "true"),
        ("leader_lost_will_roll", "true"),
        ("damaged_by_own_side", "true"),
        ("killed_enemy_leader", "true"),
        ("combo_commands", "9"),
        ("interrupted_combo", "true"),
        ("first_blood", "true"),
    ];
    check(SYS, "action_points", &pairs, "mean_ap", 11.0 + 3.5);
    check(SYS, "action_points", &pairs, "ap=12", 1.0 / 6.0);
    let plus_one = [("tactics", "10"), ("lost_no_units", "true")];
    check(SYS, "action_points", &plus_one, "mean_ap", 11.0 + 3.5);
}

/// "AP can never be reduced below 0": tactics 5, leader killed (-5),
/// damaged by own side (-1), scenario modifier 2: D6 - 3 floored at 0 =
/// 0, 0, 0, 1, 2, 3.
#[test]
fn action_points_never_below_zero() {
    let pairs = [
        ("tactics", "5"),
        ("squad_leader_killed", "true"),
        ("damaged_by_own_side", "true"),
        ("scenario_modifier", "2"),
    ];
    check(SYS, "action_points", &pairs, "mean_ap", 1.0);
    check(SYS, "action_points", &pairs, "ap=0", 0.5);
}

// -------------------------------------------------------------- order combo

/// "all the units involved in the combo are treated as a whole ... ALL will
/// have to pass their tests": 3 units, 2 tests each, Speed 2 against 4:
/// each test passes 3/4, all six (3/4)^6. Tests passed before the first
/// failure: sum_{k=1..6} (3/4)^k.
#[test]
fn order_combo_three_units_two_tests() {
    let pairs = [
        ("units", "3"),
        ("tests", "2"),
        ("attribute", "2"),
        ("target", "4"),
    ];
    let p: f64 = 0.75;
    check(SYS, "order_combo", &pairs, "p_completes", p.powi(6));
    let mean: f64 = (1..=6).map(|k| p.powi(k)).sum();
    check(SYS, "order_combo", &pairs, "mean_tests_passed", mean);
}

/// A 7+ test in the combo: 2 units, attribute 3 against 9 (a 6, then 5+:
/// 1/18 a die): each passes 1 - (17/18)^3.
#[test]
fn order_combo_seven_plus_target() {
    let pairs = [("units", "2"), ("attribute", "3"), ("target", "9")];
    let p = 1.0 - (17.0f64 / 18.0).powi(3);
    check(SYS, "order_combo", &pairs, "p_completes", p * p);
    check(SYS, "order_combo", &pairs, "mean_tests_passed", p + p * p);
    assert!((attribute(3, 9) - p).abs() < 1e-15);
}

// -------------------------------------------------------- damaged structure

/// "roll a d6. On a 4+, the floor gives way, and the unit becomes stuck
/// until D6/2 rounded down (so a roll of 6 becomes 3, a roll of 5 becomes
/// 2) AP's are spent ... If a 6 is rolled to check for the floor, roll the
/// dice again. If a SECOND 6 is rolled, the whole section gives way, and
/// the unit falls to its death. (If a second 6 is not rolled, apply the
/// normal effects above)." Stuck (fell in, lived) = 3/6 - 1/36 = 17/36;
/// D6/2 rounded down: 0, 1, 1, 2, 2, 3 (mean 3/2).
#[test]
fn damaged_structure() {
    let stuck = 17.0 / 36.0;
    check(SYS, "damaged_structure", &[], "p_falls_in", 0.5);
    check(SYS, "damaged_structure", &[], "p_collapses", 1.0 / 36.0);
    check(SYS, "damaged_structure", &[], "mean_ap_stuck", stuck * 1.5);
    check(SYS, "damaged_structure", &[], "stuck_ap=3", stuck / 6.0);
    check(
        SYS,
        "damaged_structure",
        &[],
        "stuck_ap=0",
        1.0 - stuck + stuck / 6.0,
    );
}

// ------------------------------------------------------------------- ranged

/// One to-hit die against `target` under the table reading, with its
/// re-roll: (face, re-roll) -> passes. A re-roll only matters on a 6.
fn passes(face: u32, reroll: u32, target: i64) -> bool {
    if target <= 6 {
        face as i64 >= target
    } else {
        face == 6 && reroll as i64 >= target - 4 && target <= 10
    }
}

/// Ranged attack by brute force over raw dice (targets up to 10): `rc`
/// to-hit dice, each with a re-roll die; at most `aim` kept ("keeping a
/// maximum number of dice that pass the to-hit roll as per the number to
/// the left of the K"); each kept die rolls to wound against `wound`
/// ("body attribute+armour bonuses-Number after the K"), "to a maximum of
/// the number after the S". Critical pass (the default `three_sixes`
/// reading: three dice of the to-hit roll show a 6): "double damage";
/// critical fail ("all 1's for you're to hit roll"): nothing on the target.
/// Returns (P(hit), E[hits], P(wound), E[wounds], P(critical fail)).
fn ranged(rc: usize, target: i64, aim: usize, wound: i64, s: usize) -> (f64, f64, f64, f64, f64) {
    let mut out = (0.0, 0.0, 0.0, 0.0, 0.0);
    let hit_rolls = independent::rolls(2 * rc, 6);
    let w_hit = 1.0 / hit_rolls.len() as f64;
    for r in &hit_rolls {
        let (faces, rerolls) = r.split_at(rc);
        let fail = faces.iter().all(|&f| f == 1);
        let sixes = faces.iter().filter(|&&f| f == 6).count();
        let hits = faces
            .iter()
            .zip(rerolls)
            .filter(|(f, x)| passes(**f, **x, target))
            .count()
            .min(aim);
        if fail {
            out.4 += w_hit;
        }
        if hits > 0 {
            out.0 += w_hit;
        }
        out.1 += w_hit * hits as f64;
        let p_w = ((7 - wound.max(1)) as f64 / 6.0).clamp(0.0, 1.0);
        for k in 0..=hits {
            let pk = independent::binom(hits as u64, k as u64, p_w);
            let wounds = k.min(s) * if sixes == 3 { 2 } else { 1 };
            if wounds > 0 {
                out.2 += w_hit * pk;
            }
            out.3 += w_hit * pk * wounds as f64;
        }
    }
    out
}

/// "All To hit rolls start at 5"; a 2K2S1 weapon, RC 3, against Body 3 +
/// armour 1: wound target 3 + 1 - 2 = 2.
#[test]
fn ranged_standard_shot() {
    let pairs = [
        ("firer_rc", "3"),
        ("weapon_aim", "2"),
        ("weapon_damage", "2"),
        ("weapon_strength", "1"),
        ("range", "4"),
        ("target_body", "3"),
        ("target_armour", "1"),
        ("target_speed", "3"),
    ];
    let (hit, hits, wound, wounds, fail) = ranged(3, 5, 2, 2, 1);
    assert!((hit - 19.0 / 27.0).abs() < 1e-12);
    check(SYS, "ranged", &pairs, "p_hit", hit);
    check(SYS, "ranged", &pairs, "mean_hits", hits);
    check(SYS, "ranged", &pairs, "p_wound", wound);
    check(SYS, "ranged", &pairs, "mean_wounds", wounds);
    check(SYS, "ranged", &pairs, "p_critical_fail", fail);
    check(SYS, "ranged", &pairs, "p_critical_pass", 1.0 / 216.0);
}

/// The seed's Example #3: "The pistol is -1Kx and +1 to the target number
/// when shooting 6' or over ... and the player want's to shoot 7 inches.
/// So the gun drops to 1K2S1 (-2Kx), and the target number is raised to 7
/// ... The unit has an RC of 3, needing a 7 to hit (remember to hit 7 you
/// need to roll a 6 and then a 3)". Against Example#1's target: "body
/// (3) plus armour (3) - the number after the K (3K2S1, so 2) ... a target
/// of 4" (the seed's "+" written out). Also +1 to hit for "a speed attribute of over 5".
#[test]
fn ranged_pistol_at_long_range() {
    let pairs = [
        ("firer_rc", "3"),
        ("weapon", "pistol"),
        ("range", "7"),
        ("target_body", "3"),
        ("target_armour", "3"),
        ("target_speed", "3"),
    ];
    let (hit, hits, wound, wounds, _) = ranged(3, 7, 1, 4, 1);
    assert!((hit - (1.0 - (8.0f64 / 9.0).powi(3))).abs() < 1e-12);
    check(SYS, "ranged", &pairs, "p_hit", hit);
    check(SYS, "ranged", &pairs, "mean_hits", hits);
    check(SYS, "ranged", &pairs, "p_wound", wound);
    check(SYS, "ranged", &pairs, "mean_wounds", wounds);
    // A fast target at 6": -1K (2K) and target 5 + 1 (long) + 1 (speed 6).
    let fast = [
        ("firer_rc", "3"),
        ("weapon", "pistol"),
        ("range", "6"),
        ("target_body", "3"),
        ("target_armour", "3"),
        ("target_speed", "6"),
    ];
    let (hit, hits, ..) = ranged(3, 7, 2, 4, 1);
    check(SYS, "ranged", &fast, "p_hit", hit);
    check(SYS, "ranged", &fast, "mean_hits", hits);
}

/// "SR ... the unit receives a +2RC bonus": the pistol (3K) at 2", RC 1,
/// rolls 3 dice against 5; "If the distance is so great that the penalties
/// drop the weapons statistics to 0 or below, it is too far for the weapon
/// to shoot": at 9" ("a -4Kx penalty ... -1K1, too far") nothing.
#[test]
fn ranged_short_range_and_out_of_reach() {
    let near = [
        ("firer_rc", "1"),
        ("weapon", "pistol"),
        ("range", "2"),
        ("target_body", "3"),
        ("target_speed", "3"),
    ];
    check(SYS, "ranged", &near, "p_hit", 1.0 - (2.0f64 / 3.0).powi(3));
    check(SYS, "ranged", &near, "mean_hits", 1.0);
    let far = [
        ("firer_rc", "3"),
        ("weapon", "pistol"),
        ("range", "9"),
        ("target_body", "3"),
        ("target_speed", "3"),
    ];
    check(SYS, "ranged", &far, "p_in_reach", 0.0);
    check(SYS, "ranged", &far, "p_hit", 0.0);
}

// ------------------------------------------------------------ close combat

/// Distribution of passes among `n` dice at `p` each, at most `keep` kept.
fn kept(n: usize, keep: usize, p: f64) -> Vec<f64> {
    let mut out = vec![0.0; keep + 1];
    for k in 0..=n {
        out[k.min(keep)] += independent::binom(n as u64, k as u64, p);
    }
    out
}

/// One close-combat attack by brute force over the attacker's raw to-hit
/// dice (targets up to 6). "Step 3: ... it is CCKStr. The target number is
/// the opponents CC score"; "Step 5: ... roll ccKspeed. The target number
/// is the opponents CC. For each dice that passes, remove one dice of the
/// attacker"; "Step 6: ... the target being the victims Body + Save ...
/// The number of dice that pass the target number is how many wounds";
/// "all 1's for you're to hit roll, all damage is done to your own unit";
/// "a score of 18 ... by rolling 6's, double damage" (three sixes).
/// Returns (P(hit), E[dice through], P(wound), E[wounds]).
#[allow(clippy::too_many_arguments)]
fn close(
    a_cc: usize,
    a_str: usize,
    d_cc: i64,
    d_dice: usize,
    d_keep: usize,
    wound: i64,
) -> (f64, f64, f64, f64) {
    let p_of = |t: i64| ((7 - t.max(1)) as f64 / 6.0).clamp(0.0, 1.0);
    let defence = kept(d_dice, d_keep, p_of(a_cc as i64));
    let p_w = p_of(wound);
    let mut out = (0.0, 0.0, 0.0, 0.0);
    let all = independent::rolls(a_cc, 6);
    let w = 1.0 / all.len() as f64;
    for r in &all {
        if r.iter().all(|&f| f == 1) {
            continue;
        }
        let hits = r.iter().filter(|&&f| f as i64 >= d_cc).count().min(a_str);
        let double = if r.iter().filter(|&&f| f == 6).count() == 3 {
            2.0
        } else {
            1.0
        };
        if hits > 0 {
            out.0 += w;
        }
        for (removed, pd) in defence.iter().enumerate() {
            let through = hits.saturating_sub(removed);
            out.1 += w * pd * through as f64;
            for k in 0..=through {
                let pk = independent::binom(through as u64, k as u64, p_w);
                if k > 0 {
                    out.2 += w * pd * pk;
                }
                out.3 += w * pd * pk * k as f64 * double;
            }
        }
    }
    out
}

fn cc_pairs<'a>(extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut v = vec![
        ("attacker_cc", "2"),
        ("attacker_strength", "2"),
        ("attacker_speed", "3"),
        ("attacker_body", "2"),
        ("attacker_will", "3"),
        ("defender_cc", "3"),
        ("defender_strength", "2"),
        ("defender_speed", "1"),
        ("defender_body", "2"),
        ("defender_will", "3"),
        ("defender_save", "1"),
    ];
    v.extend_from_slice(extra);
    v
}

/// Passive defence against a "Punch: +1 Strength" (CC 2 K Str 3: both dice
/// may be kept): CC 2 K Str 3 against the defender's CC 3 (4/6 a die);
/// the defender rolls CC 3 K Speed 1 against the attacker's CC 2 (5/6 a
/// die); wounds against Body 2 + save 1 = 3 (4/6).
#[test]
fn close_combat_passive_defence() {
    let pairs = cc_pairs(&[("attack", "punch")]);
    let (hit, through, wound, wounds) = close(2, 3, 3, 3, 1, 3);
    check(SYS, "close_combat", &pairs, "p_hit", hit);
    check(SYS, "close_combat", &pairs, "mean_dice_through", through);
    check(SYS, "close_combat", &pairs, "p_wound", wound);
    check(SYS, "close_combat", &pairs, "mean_wounds", wounds);
    check(SYS, "close_combat", &pairs, "p_critical_fail", 1.0 / 36.0);
}

/// "Kick: +1 CC stat", "the initiator of the close combat receives a +1
/// bonus to their CC characteristic" (CC 1 + 2 = 3 dice, and the
/// defender's target 3: the seed's Step 5 example raises the target to the
/// kicker's CC), against "Dodge: Add +2 to your speed stat" (keep 3); "Head
/// butt: Opponent –1 Body" separately (wound target 2).
#[test]
fn close_combat_kick_initiator_against_dodge() {
    let kick = cc_pairs(&[
        ("attacker_cc", "1"),
        ("attack", "kick"),
        ("initiator", "true"),
        ("defence", "dodge"),
    ]);
    let (hit, through, wound, wounds) = close(3, 2, 3, 3, 3, 3);
    check(SYS, "close_combat", &kick, "p_hit", hit);
    check(SYS, "close_combat", &kick, "mean_dice_through", through);
    check(SYS, "close_combat", &kick, "p_wound", wound);
    check(SYS, "close_combat", &kick, "mean_wounds", wounds);
    check(SYS, "close_combat", &kick, "p_critical_pass", 1.0 / 216.0);
    let butt = cc_pairs(&[("attack", "head_butt")]);
    let (_, _, wound, wounds) = close(2, 2, 3, 3, 1, 2);
    check(SYS, "close_combat", &butt, "p_wound", wound);
    check(SYS, "close_combat", &butt, "mean_wounds", wounds);
}

/// A fight of two punches at 1 AP each (extra wounds skipped), the defender
/// out at its first wound, passive: out unless both attacks fail to wound,
/// 1 - (1 - p)^2 with p from `close`; the second attack is paid only if
/// the first did not wound. The attacker (6 wounds) cannot be taken out by
/// its own critical fails (at most 2 a time).
#[test]
fn close_combat_fight_two_attacks() {
    let pairs = cc_pairs(&[
        ("attack", "punch"),
        ("attacker_ap", "2"),
        ("defender_ap", "0"),
        ("defender_wounds", "1"),
        ("attacker_wounds", "6"),
        ("extra_wounds", "skip"),
    ]);
    let (_, _, p, _) = close(2, 2, 3, 3, 1, 3);
    check(
        SYS,
        "close_combat_fight",
        &pairs,
        "p_defender_out",
        1.0 - (1.0 - p).powi(2),
    );
    check(SYS, "close_combat_fight", &pairs, "mean_attacks", 2.0 - p);
    let one = cc_pairs(&[
        ("attack", "punch"),
        ("attacker_ap", "1"),
        ("defender_ap", "0"),
        ("defender_wounds", "1"),
    ]);
    check(SYS, "close_combat_fight", &one, "p_defender_out", p);
}

/// A defender with CC 0 and no weapons: every attacking die hits ("keep up
/// to 3 that pass the target number of the other players CC"), its 0
/// defence dice remove none, and against Body 0 every die wounds. Only an
/// all-1s roll stops a wound. Kick (+1 CC) rolls 3 dice: a wound unless
/// all three are 1s, 215/216; the other attacks roll 2 (35/36) or cause no
/// wounds (shove). So the game's value under P(wound) is 215/216.
#[test]
fn close_combat_game_value_against_a_helpless_defender() {
    let pairs = cc_pairs(&[
        ("defender_cc", "0"),
        ("defender_body", "0"),
        ("defender_save", "0"),
        ("payoff", "p_wound"),
    ]);
    check(
        SYS,
        "close_combat_game",
        &pairs,
        "value_p_wound",
        215.0 / 216.0,
    );
    check(SYS, "close_combat_game", &pairs, "attack=kick", 1.0);
}

/// "Punch: +1 Strength": CC 3, Strength 1 keeps up to 2 hits with a punch
/// (CC 3 K 2) where a kick keeps 1 (CC 4 K 1, "Kick: +1 CC stat").
#[test]
fn close_combat_punch_adds_strength() {
    let punch = cc_pairs(&[
        ("attacker_cc", "3"),
        ("attacker_strength", "1"),
        ("attack", "punch"),
    ]);
    let (hit, through, wound, wounds) = close(3, 2, 3, 3, 1, 3);
    check(SYS, "close_combat", &punch, "p_hit", hit);
    check(SYS, "close_combat", &punch, "mean_dice_through", through);
    check(SYS, "close_combat", &punch, "p_wound", wound);
    check(SYS, "close_combat", &punch, "mean_wounds", wounds);
}

/// "Block: You can use your Str stat instead of Speed for blocking": the
/// defender (CC 3, Speed 1, Strength 2) keeps up to 2 defence dice, not 1.
#[test]
fn close_combat_block_keeps_up_to_strength() {
    let block = cc_pairs(&[("attack", "punch"), ("defence", "block")]);
    let (_, through, wound, wounds) = close(2, 3, 3, 3, 2, 3);
    check(SYS, "close_combat", &block, "mean_dice_through", through);
    check(SYS, "close_combat", &block, "p_wound", wound);
    check(SYS, "close_combat", &block, "mean_wounds", wounds);
}

/// "Shove: +2 CC. Causes no wounds. Knocks the enemy back 1 inch for every
/// "wound" roll passed (maximum attackers Strength)": CC 2 + 2 = 4 dice
/// (keep 2) against the defender's CC 3; the defender's dice need the
/// shover's CC 4 (3/6). No wounds; knock-back = wound rolls passed, at most
/// Strength 2 (already at most 2 dice through).
#[test]
fn close_combat_shove() {
    let shove = cc_pairs(&[("attack", "shove")]);
    let (hit, through, _, _) = close(4, 2, 3, 3, 1, 3);
    check(SYS, "close_combat", &shove, "p_hit", hit);
    check(SYS, "close_combat", &shove, "mean_dice_through", through);
    check(SYS, "close_combat", &shove, "mean_wounds", 0.0);
    // Knock-back: each die through passes the wound roll (target 3) 4/6.
    // Critical passes (three sixes of four dice) double damage, not
    // inches: E = E[through] * 4/6 (no all-1s roll gets any through).
    check(
        SYS,
        "close_combat",
        &shove,
        "mean_knockback",
        through * 4.0 / 6.0,
    );
}

/// The same helpless defender under the mean-wounds payoff: a kick keeps
/// 2 of its 3 dice unless all three are 1s, and "If a score of 18 is
/// received by rolling 6's, double damage" (three sixes, 1/216): 2 *
/// 214/216 plus 4 * 1/216 = 2 exactly; the two-dice attacks give 2 * 35/36.
#[test]
fn close_combat_game_mean_wounds_against_a_helpless_defender() {
    let pairs = cc_pairs(&[
        ("defender_cc", "0"),
        ("defender_body", "0"),
        ("defender_save", "0"),
        ("payoff", "mean_wounds"),
    ]);
    check(SYS, "close_combat_game", &pairs, "value_mean_wounds", 2.0);
    check(SYS, "close_combat_game", &pairs, "attack=kick", 1.0);
}

/// "Multiple wounds If more than 1 dice passes the wounding phase ... for
/// each dice that passes, the attacker can spend AP to make the extra
/// wounds count. The costs are 2 AP for the second wound, 3 AP for the
/// third"; "If a score of 18 is received by rolling 6's, double damage".
/// The helpless defender of the test above: a kick keeps 2 of its 3 dice
/// and both wound unless all three are 1s (215/216); two dice pass, so 2
/// AP make the second count, also when three sixes (1/216) double the
/// damage to 4 wounds: the dice that pass are paid for, the doubling is
/// free. E[AP] = 2 * 215/216 (charging the 4 doubled wounds, 2 + 3 + 4 =
/// 9, would give 2 * 214/216 + 9/216).
#[test]
fn close_combat_extra_wounds_are_paid_per_die_that_passes() {
    let pairs = cc_pairs(&[
        ("defender_cc", "0"),
        ("defender_body", "0"),
        ("defender_save", "0"),
        ("attack", "kick"),
    ]);
    check(
        SYS,
        "close_combat",
        &pairs,
        "mean_ap_for_extra_wounds",
        2.0 * 215.0 / 216.0,
    );
    check(SYS, "close_combat", &pairs, "mean_wounds", 2.0);
}

/// "Deflect: Using a ranged weapon to block, you get +2 to your CC. If
/// hits are negated, roll a D6. On a 6 the weapon breaks" (the default),
/// against Example #2: "because he chose 'deflect' and he succeded in
/// removing two dice from the attacker, he must make a roll of 4 (base
/// 2+2) to see if the weapon breaks. He rolls a 4 and is ok" (variant
/// `deflect_break = "example"`: breaks below 2 + the dice negated; two
/// negated break on 1-3). A punch (CC 2 K 3) against the defender's CC 3:
/// hits by brute force over the two to-hit dice (3+); the defender rolls
/// CC 3 + 2 = 5 dice keeping Speed 2, each passing the attacker's CC 2
/// (5/6); the dice negated are the fewer of hits and defence passes.
#[test]
fn close_combat_deflect_weapon_breaks_both_readings() {
    let pairs = cc_pairs(&[
        ("attack", "punch"),
        ("defence", "deflect"),
        ("defender_ranged_weapon", "true"),
        ("defender_speed", "2"),
    ]);
    let defence = kept(5, 2, 5.0 / 6.0);
    let (mut six, mut example) = (0.0, 0.0);
    for r in independent::rolls(2, 6) {
        let hits = r.iter().filter(|&&f| f >= 3).count();
        for (removed, pd) in defence.iter().enumerate() {
            let negated = hits.min(removed);
            if negated > 0 {
                six += pd / 36.0 / 6.0;
                example += pd / 36.0 * ((1 + negated).min(6) as f64 / 6.0);
            }
        }
    }
    check(SYS, "close_combat", &pairs, "p_defender_weapon_breaks", six);
    let v = [("deflect_break", "example")];
    check_with(
        SYS,
        "close_combat",
        &pairs,
        &v,
        "p_defender_weapon_breaks",
        example,
    );
}

/// "Counter attack: Roll to dodge as normal, but do not take any of the
/// attackers dice away. If you get more successes than the attacker, you
/// can attack once for free. If you fail, the attacker gets one attack for
/// free." A punch ("Punch: +1 Strength") from CC 3, Str 2: three dice
/// against the defender's CC 3 (4/6 each), all three may be kept, so the
/// hits H ~ Bin(3, 2/3): 1/27, 6/27, 12/27, 8/27. The defender (CC 3,
/// Speed 2) rolls three dice against the puncher's CC 3 (4/6 each).
/// Default `counter_roll = "plain"` (Step 5's "roll ccKspeed"): up to 2
/// kept, D = 0, 1, 2 with 1/27, 6/27, 20/27; P(D > H) = 6/27 * 1/27 +
/// 20/27 * 7/27 = 146/729 (20.0%). Variant `counter_roll = "dodge"`
/// ("Dodge: Add +2 to your speed stat"): up to 4 kept, D and H share one
/// law, P(D > H) = (1 - P(D = H)) / 2 with P(D = H) = (1 + 36 + 144 +
/// 64) / 729 = 245/729, so 242/729 (33.2%).
#[test]
fn close_combat_counter_attack_rolls_with_or_without_dodge() {
    let pairs = cc_pairs(&[
        ("attacker_cc", "3"),
        ("defender_speed", "2"),
        ("attack", "punch"),
        ("defence", "counter_attack"),
    ]);
    let plain = 146.0 / 729.0;
    let dodge = 242.0 / 729.0;
    check(SYS, "close_combat", &pairs, "p_defender_free_attack", plain);
    check(
        SYS,
        "close_combat",
        &pairs,
        "p_attacker_free_attack",
        1.0 - plain,
    );
    let v = [("counter_roll", "dodge")];
    check_with(
        SYS,
        "close_combat",
        &pairs,
        &v,
        "p_defender_free_attack",
        dodge,
    );
    check_with(
        SYS,
        "close_combat",
        &pairs,
        &v,
        "p_attacker_free_attack",
        1.0 - dodge,
    );
    // The same numbers by brute force over both pools' raw passes.
    let h = kept(3, 3, 4.0 / 6.0);
    for (keep, want) in [(2, plain), (4, dodge)] {
        let d = kept(3, keep, 4.0 / 6.0);
        let mut p = 0.0;
        for (i, ph) in h.iter().enumerate() {
            for (j, pd) in d.iter().enumerate() {
                if j > i {
                    p += ph * pd;
                }
            }
        }
        assert!((p - want).abs() < 1e-15, "keep {keep}: {p} against {want}");
    }
    // "Dodge" itself keeps Speed + 2 under either reading: the dice through
    // are the hits less the defence passes kept (up to 4 here).
    let dodging = cc_pairs(&[
        ("attacker_cc", "3"),
        ("defender_speed", "2"),
        ("attack", "punch"),
        ("defence", "dodge"),
    ]);
    let (_, through, _, _) = close(3, 3, 3, 3, 4, 3);
    check_with(
        SYS,
        "close_combat",
        &dodging,
        &v,
        "mean_dice_through",
        through,
    );
}

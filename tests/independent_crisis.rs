//! Crisis (seed `003_e08bb638dba16bed.txt`): exact values derived by hand
//! from the seed text, or by brute force over raw dice here, never from
//! the rule code, compared with krunch's exact evaluator.
//!
//! The seed never gives the Skill roll's dice nor how Extras are counted;
//! MECHANICS.md takes both as parameters. These tests use the defaults:
//! the roll is 2d6 plus the skill and modifiers, success when the total
//! reaches the Difficulty Level, and one Extra per 4 points above it
//! ("His roll results in a 13. This nets him 2 Extras": (13 - 4) / 4
//! rounded down is 2).

#[path = "common/independent.rs"]
mod independent;

use independent::{check, check_with, prob};

const SYS: &str = "crisis";

/// Extras of a total against a difficulty (0 on a failure).
fn extras(total: i64, dl: i64) -> i64 {
    if total >= dl { (total - dl) / 4 } else { 0 }
}

fn two_d6(f: impl Fn(i64) -> f64) -> f64 {
    independent::mean(2, 6, |r| f(r.iter().sum::<u32>() as i64))
}

#[test]
fn the_seed_example_nets_two_extras() {
    assert_eq!(extras(13, 4), 2);
}

// -------------------------------------------------------------------- check

/// "Every task usually has a difficulty of 4": skill 0, 2d6 >= 4 is 33/36;
/// Extras 1 on 8-11 (14/36), 2 on 12 (1/36).
#[test]
fn check_normal_difficulty() {
    let p = [("skill", "0")];
    check(SYS, "check", &p, "p_success", 33.0 / 36.0);
    check(
        SYS,
        "check",
        &p,
        "mean_extras",
        two_d6(|t| extras(t, 4) as f64),
    );
    check(SYS, "check", &p, "extras=2", 1.0 / 36.0);
    check(SYS, "check", &p, "extras=1", 14.0 / 36.0);
}

/// "+1 Asset Having the correct tools at hand. -1 Unfavorable
/// Circumstance ... multiple assets of the same type do not stack": rope,
/// rope, gear is +2; 3 unfavourable -3; "8 Challenging" with skill 3:
/// 2d6 + 2 >= 8, i.e. 2d6 >= 6, 26/36.
#[test]
fn check_assets_do_not_stack_by_type() {
    let p = [
        ("skill", "3"),
        ("difficulty", "challenging"),
        ("assets", "rope, rope, gear"),
        ("unfavourable", "3"),
    ];
    check(SYS, "check", &p, "p_success", 26.0 / 36.0);
    check(
        SYS,
        "check",
        &p,
        "mean_extras",
        two_d6(|t| extras(t + 2, 8) as f64),
    );
}

/// "Dodging is a Contest between two opponents": skill 2 against skill 0
/// on the same dice, ties to the opponent (krunch's reading): 2d6 + 2 >
/// 2d6', brute force over the four dice.
#[test]
fn check_contest() {
    let p = [("skill", "2"), ("opponent_skill", "0")];
    let want = prob(4, 6, |r| r[0] + r[1] + 2 > r[2] + r[3]);
    check(SYS, "check", &p, "p_win_contest", want);
}

// --------------------------------------------------------------- turn order

/// "Turn Order: Mind ± Circumstance"; "If a player character and an NPC
/// tie, the player character acts first." Equal Minds, each rolling 2d6:
/// a tie is sum over totals of (ways/36)^2 = 146/1296; PC first (1 +
/// 146/1296)/2 = 721/1296 (brute force over the four dice below). "If you attack an enemy who has not noticed you ... you gain
/// an additional turn before actual combat starts."
#[test]
fn turn_order() {
    let p = [("pc_mind", "3"), ("npc_mind", "3")];
    let first = prob(4, 6, |r| r[0] + r[1] >= r[2] + r[3]);
    assert!((first - 721.0 / 1296.0).abs() < 1e-12);
    check(SYS, "turn_order", &p, "p_pc_first", first);
    check(SYS, "turn_order", &p, "p_tie", 146.0 / 1296.0);
    let s = [("pc_mind", "3"), ("npc_mind", "3"), ("surprise", "pc")];
    check(SYS, "turn_order", &s, "p_pc_first", 1.0);
    check(SYS, "turn_order", &s, "pc_turns_first=2", first);
    let n = [("pc_mind", "3"), ("npc_mind", "3"), ("surprise", "npc")];
    check(SYS, "turn_order", &n, "p_pc_first", 0.0);
    // Mind 5 against 3 with -2 circumstance: equal again.
    let c = [
        ("pc_mind", "5"),
        ("pc_circumstance", "-2"),
        ("npc_mind", "3"),
    ];
    check(SYS, "turn_order", &c, "p_pc_first", first);
}

// ------------------------------------------------------------------- damage

/// The seed's examples: "A target wears an armor with a physical DR of 3,
/// and a durability of 10. He receives 5 physical damage. The armor blocks
/// 3 of the 5 incoming damage. The durability of armor is reduced to 7, and
/// the target only receives 2 points of damage."
#[test]
fn damage_the_seed_armour_example() {
    let p = [
        ("extras", "0"),
        ("damage", "5"),
        ("armour_dr", "3"),
        ("armour_durability", "10"),
        ("target_health", "10"),
    ];
    check(SYS, "damage", &p, "mean_wounds", 2.0);
    check(SYS, "damage", &p, "mean_blocked", 3.0);
    check(SYS, "damage", &p, "durability_left=7", 1.0);
    // "This nets him 2 Extras ... he gains 2 extra damage": DMG 3 + 2.
    let x = [("extras", "2"), ("damage", "3"), ("target_health", "10")];
    check(SYS, "damage", &x, "mean_damage", 5.0);
    check(SYS, "damage", &x, "mean_wounds", 5.0);
}

/// "If your damage would be reduced to 0 or lower because of defenses ...
/// you still deal 1 non-lethal damage"; "If a creature's Health drops to
/// 0, the creature is incapacitated and Dying. If the Health drops to -10,
/// the creature immediately dies."; "Attacks that deal more than 12 wounds
/// in one hit also incapacitate the target."
#[test]
fn damage_limits() {
    let zero = [
        ("extras", "0"),
        ("damage", "2"),
        ("armour_dr", "3"),
        ("armour_durability", "10"),
        ("target_health", "10"),
    ];
    check(SYS, "damage", &zero, "p_nonlethal", 1.0);
    check(SYS, "damage", &zero, "mean_wounds", 0.0);
    check(SYS, "damage", &zero, "mean_nonlethal", 1.0);
    let dying = [
        ("extras", "0"),
        ("damage", "2"),
        ("target_health", "5"),
        ("wounds_before", "3"),
    ];
    check(SYS, "damage", &dying, "p_dying", 1.0);
    let dead = [("extras", "0"), ("damage", "15"), ("target_health", "5")];
    check(SYS, "damage", &dead, "p_dead", 1.0);
    let big = [("extras", "0"), ("damage", "13"), ("target_health", "30")];
    check(SYS, "damage", &big, "p_overwhelmed", 1.0);
    let twelve = [("extras", "0"), ("damage", "12"), ("target_health", "30")];
    check(SYS, "damage", &twelve, "p_incapacitated", 0.0);
}

/// Extras from an attack roll given that it hit: skill 0 against DL 4,
/// hits on 2d6 >= 4 (33 of 36); Extras 1 on 8-11, 2 on 12: E = 16/33.
/// "An Area of Effect weapon does not receive extra damage from Extras."
#[test]
fn damage_extras_from_the_attack_roll() {
    let p = [("skill", "0"), ("damage", "3"), ("target_health", "20")];
    check(SYS, "damage", &p, "mean_extras", 16.0 / 33.0);
    check(SYS, "damage", &p, "mean_wounds", 3.0 + 16.0 / 33.0);
    let a = [
        ("skill", "0"),
        ("damage", "3"),
        ("target_health", "20"),
        ("area", "true"),
    ];
    check(SYS, "damage", &a, "mean_wounds", 3.0);
}

// ------------------------------------------------------------------- attack

/// "The Difficulty Level to hit is a 4"; "RoF higher than 1 allows you to
/// make optional, consecutive Attack rolls ... at the expense of 1 AP, and
/// a cumulative -2 penalty on HIT, per extra Attack". Two attacks, skill
/// 0, DMG 3 against Health 20: hits 33/36 + 26/36; damage 3 + Extras each.
#[test]
fn attack_two_rof_attacks() {
    let p = [
        ("skill", "0"),
        ("rof", "2"),
        ("attacks", "2"),
        ("damage", "3"),
        ("target_health", "20"),
    ];
    check(SYS, "attack", &p, "mean_hits", 59.0 / 36.0);
    let first = two_d6(|t| {
        if t >= 4 {
            3.0 + extras(t, 4) as f64
        } else {
            0.0
        }
    });
    let second = two_d6(|t| {
        if t - 2 >= 4 {
            3.0 + extras(t - 2, 4) as f64
        } else {
            0.0
        }
    });
    check(SYS, "attack", &p, "mean_health_lost", first + second);
    check(
        SYS,
        "attack",
        &p,
        "p_hit",
        1.0 - (3.0 / 36.0) * (10.0 / 36.0),
    );
}

/// A dodged area attack. Damage: "If your damage would be reduced to 0 or
/// lower because of defenses, such as damage reduction or dodging, you
/// still deal 1 non-lethal damage to the target" (the default); Dodging:
/// "If you win the contest you can move your character by 1 tile ... away
/// from the AoE effect before you receive any damage or effect from it"
/// (variant `dodge_damage = "none"`). An area attack of skill 2 against DL
/// 4 ("Thrown weapons ... a normal Ranged Attack with a Difficulty Level
/// of 4"), DMG 3 and no damage from Extras ("An Area of Effect weapon does
/// not receive extra damage from Extras"); the target dodges with
/// Athletics 2 and must beat the attack's total. Brute force over the
/// attacker's two dice and the dodger's two.
#[test]
fn attack_dodged_area_attack_still_deals_one_non_lethal() {
    let p = [
        ("skill", "2"),
        ("kind", "area"),
        ("target_athletics", "2"),
        ("damage", "3"),
        ("target_health", "10"),
    ];
    let hit = |r: &[u32]| r[0] + r[1] + 2 >= 4;
    let dodged = prob(4, 6, |r| hit(r) && r[2] + r[3] + 2 > r[0] + r[1] + 2);
    let lands = prob(4, 6, |r| hit(r) && r[2] + r[3] + 2 <= r[0] + r[1] + 2);
    check(SYS, "attack", &p, "p_dodged", dodged);
    check(SYS, "attack", &p, "mean_nonlethal", dodged);
    check(SYS, "attack", &p, "mean_health_lost", 3.0 * lands);
    let none = [("dodge_damage", "none")];
    check_with(SYS, "attack", &p, &none, "mean_nonlethal", 0.0);
    check_with(SYS, "attack", &p, &none, "mean_health_lost", 3.0 * lands);
    // A fight against Health 1, one attack a turn: "If the non-lethal
    // damage is higher than the target's current Health, the character
    // becomes incapacitated", so two dodges knock it out, while a landed
    // hit of 3 leaves it Dying first (skill 2 never misses DL 4): P(knocked
    // out) = P(the first two attacks are both dodged).
    let first_dodge = dodged / (dodged + lands);
    let q = [("target_health", "1")];
    let f: Vec<(&str, &str)> = p
        .iter()
        .map(|&(k, v)| q.iter().find(|(n, _)| *n == k).map_or((k, v), |&x| x))
        .collect();
    check(SYS, "fight", &f, "p_knocked_out", first_dodge * first_dodge);
    check_with(SYS, "fight", &f, &none, "p_knocked_out", 0.0);
}

/// Cover: "-2 Cover, -4 Heavy Cover, unhittable Total Cover"; "When hiding
/// behind materials that are penetrable ... decrease your Cover by one
/// step. E.g. total cover becomes heavy cover". Total: never hit; total
/// but penetrable = heavy: skill 0 needs 2d6 >= 8, 15/36.
#[test]
fn attack_cover_steps() {
    let total = [
        ("skill", "0"),
        ("damage", "3"),
        ("target_health", "20"),
        ("cover", "total"),
    ];
    check(SYS, "attack", &total, "p_hit", 0.0);
    let pen = [
        ("skill", "0"),
        ("damage", "3"),
        ("target_health", "20"),
        ("cover", "total"),
        ("penetrable", "true"),
    ];
    check(SYS, "attack", &pen, "p_hit", 15.0 / 36.0);
    // Melee: "The Difficulty Level to hit is the target's Parry value":
    // 2d6 + 1 >= 10, 2d6 >= 9, 10/36.
    let melee = [
        ("skill", "1"),
        ("kind", "melee"),
        ("target_parry", "10"),
        ("damage", "3"),
        ("target_health", "20"),
    ];
    check(SYS, "attack", &melee, "p_hit", 10.0 / 36.0);
}

// -------------------------------------------------------------------- fight

/// An area weapon that always hits (skill 10: 2d6 + 10 >= 4) and gets no
/// Extras deals 5 a turn: Health 10 reaches 0 ("incapacitated and Dying")
/// at the second turn, never -10.
#[test]
fn fight_fixed_damage() {
    let p = [
        ("skill", "10"),
        ("kind", "area"),
        ("damage", "5"),
        ("target_health", "10"),
    ];
    check(SYS, "fight", &p, "mean_turns", 2.0);
    check(SYS, "fight", &p, "p_dying", 1.0);
    check(SYS, "fight", &p, "p_dead", 0.0);
}

/// One hit of 10 ends it; skill 0 hits 33/36 a turn: turns geometric,
/// mean 36/33, over after exactly 2 turns (3/36)(33/36).
#[test]
fn fight_geometric_turns() {
    let p = [
        ("skill", "0"),
        ("kind", "area"),
        ("damage", "10"),
        ("target_health", "10"),
    ];
    check(SYS, "fight", &p, "mean_turns", 36.0 / 33.0);
    check(SYS, "fight", &p, "turns=2", 3.0 / 36.0 * 33.0 / 36.0);
    check(SYS, "fight", &p, "p_dying", 1.0);
}

// ------------------------------------------------------------------ scatter

/// "If you miss an Area of Effect Attack, roll a d8 ... A 1 is being
/// straight back at you ... You miss by a number of squares equal to the
/// range increment of the throw." Skill 0: a hit 33/36; range increment
/// 2, blast radius 1: a miss lands 2 away, out of reach of the target.
/// The thrower 2 away, radius 0: caught on a miss with a 1, 3/36 * 1/8.
#[test]
fn scatter() {
    let p = [
        ("skill", "0"),
        ("range_increment", "2"),
        ("blast_radius", "1"),
        ("thrower_distance", "4"),
    ];
    check(SYS, "scatter", &p, "p_hit", 33.0 / 36.0);
    check(SYS, "scatter", &p, "p_target_caught", 33.0 / 36.0);
    check(SYS, "scatter", &p, "landed=2", 3.0 / 36.0);
    let t = [
        ("skill", "0"),
        ("range_increment", "2"),
        ("blast_radius", "0"),
        ("thrower_distance", "2"),
    ];
    check(SYS, "scatter", &t, "p_thrower_caught", 3.0 / 36.0 / 8.0);
    let one = [
        ("skill", "0"),
        ("range_increment", "1"),
        ("blast_radius", "1"),
    ];
    check(SYS, "scatter", &one, "p_target_caught", 1.0);
}

// ------------------------------------------------------------------ healing

/// "Without any healing aids ... the healer suffers a -2 penalty"; "If the
/// Medicine check was successful, the patient recovers from 1 wound, and
/// an additional wound for each Extra." Healer skill 2, no aids: 2d6 >= 4
/// (33/36); 1 wound to heal. "Every day a wounded ... character has to
/// attempt a Body roll to heal 1 wound naturally ... On a failed check
/// nothing happens"; "Medical attention from self" 0: Body 0, 2 wounds,
/// no critical failures: days negative binomial, mean 2 * 36/33.
#[test]
fn healing() {
    let m = [
        ("health", "10"),
        ("wounds", "1"),
        ("body", "0"),
        ("healer_skill", "2"),
    ];
    check(SYS, "healing", &m, "p_medicine_success", 33.0 / 36.0);
    check(SYS, "healing", &m, "mean_healed_by_medicine", 33.0 / 36.0);
    let n = [
        ("health", "10"),
        ("wounds", "2"),
        ("body", "0"),
        ("care", "self"),
        ("critical_failure", "never"),
    ];
    let p: f64 = 33.0 / 36.0;
    check(SYS, "healing", &n, "mean_days", 2.0 / p);
    check(SYS, "healing", &n, "days=2", p * p);
    check(SYS, "healing", &n, "days=3", 2.0 * p * p * (1.0 - p));
    // "-2 No medical attention": Body 0 needs 2d6 >= 6, 26/36 a day.
    let none = [
        ("health", "10"),
        ("wounds", "1"),
        ("body", "0"),
        ("critical_failure", "never"),
    ];
    check(SYS, "healing", &none, "mean_days", 36.0 / 26.0);
}

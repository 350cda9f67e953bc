//! Crisis `volley` and `turns_to_kill` (seed `003_e08bb638dba16bed.txt`):
//! expected values derived by hand from the seed text, or by a small
//! enumeration over plain 2D6 written here from the seed, never from the
//! rule code; krunch's numbers come only through the public build entry
//! and its exact evaluator ([`independent::exact_all`]).
//!
//! Rules used throughout (seed sentences), under the registry's readings
//! of the dice the chapter never gives (a Skill roll is 2D6 + skill, one
//! Extra per full 4 points above the DL: "His roll results in a 13. This
//! nets him 2 Extras"):
//! - Ranged Attacks: "The Difficulty Level to hit is a 4"; Melee Attacks:
//!   "The Difficulty Level to hit is the target's Parry value".
//! - RoF: "a cumulative -2 penalty on HIT, per extra Attack"; "You have to
//!   assign all Attacks to your targets first before you roll for them".
//! - Damage: "The amount of Extras on the attack roll is the amount of
//!   extra damage you deal"; Damage Reduction: "all damage you deal is
//!   reduced by the target's DR. Damage that's reduced by the Armor is
//!   dealt to the Armor's Durability instead. If the Armor's Durability
//!   reaches 0, it does not provide DR anymore."
//! - Lethal: "If a creature's Health drops to 0, the creature is
//!   incapacitated and Dying. If the Health drops to -10, the creature
//!   immediately dies."
//! - Turns: "Each character and creature in a crisis have one turn per
//!   round ... Once every character has acted, a new round begins": the
//!   attackers of a volley act one after another on the same target, whose
//!   wounds and armour carry over; an attacker whose turn begins with the
//!   target already incapacitated holds its attacks (the reading the Crisis
//!   README states).
//! - Dodging: "Once per round you can try to dodge an incoming Area of
//!   Effect Attack. You have to choose to dodge before the attacker rolls
//!   his attack": the round's first area attack.
//! - Action Points: "At the start of each turn, including the beginning of
//!   a Crisis, the character recovers 4 AP"; "Any AP over 6 are lost".

#[path = "common/independent.rs"]
mod independent;

use independent::{TOL, exact_all, exact_all_with, metric};

const SYS: &str = "crisis";

/// Every 2D6 total with its count of 36.
fn two_d6() -> Vec<(i32, u32)> {
    (2..=12)
        .map(|t| (t, (6 - (t - 7i32).abs()) as u32))
        .collect()
}

/// The target as the seed describes it: Health, non-lethal wounds, the
/// armour's DR and Durability.
#[derive(Clone, Copy, Debug)]
struct Tgt {
    health: i32,
    full: i32,
    nonlethal: i32,
    dr: i32,
    durability: i32,
}

impl Tgt {
    fn new(health: i32, dr: i32, durability: i32) -> Self {
        Tgt {
            health,
            full: health,
            nonlethal: 0,
            dr,
            durability,
        }
    }

    /// "all damage you deal is reduced by the target's DR. Damage that's
    /// reduced by the Armor is dealt to the Armor's Durability instead";
    /// "If your damage would be reduced to 0 or lower ... you still deal 1
    /// non-lethal damage"; Health stops at -10 ("immediately dies").
    fn take(&mut self, damage: i32) {
        let blocked = if self.durability > 0 {
            self.dr.min(damage).min(self.durability)
        } else {
            0
        };
        self.durability -= blocked;
        let wounds = damage - blocked;
        if wounds <= 0 {
            self.nonlethal = (self.nonlethal + 1).min(self.full + 1);
        } else {
            self.health = (self.health - wounds).max(-10);
        }
    }

    fn incapacitated(&self) -> bool {
        self.health <= 0 || self.nonlethal > self.health
    }
}

#[track_caller]
fn close(all: &[(String, f64)], name: &str, want: f64) {
    let got = metric(all, name);
    assert!(
        (got - want).abs() < TOL,
        "{name}: krunch {got:.15}, derived {want:.15}"
    );
}

/// Two gunmen, one after the other, each skill 0 with a damage-3 weapon,
/// one ranged attack each, at a target of Health 6 in armour DR 1,
/// Durability 2. A hit needs 4+ on 2D6 (33/36); its Extras are 0 on 4-7
/// (18/36), 1 on 8-11 (14/36), 2 on 12 (1/36), so it deals 3, 4 or 5, of
/// which the armour blocks 1 while it lasts: 2, 3 or 4 wounds. The first
/// hit leaves Durability 1, the second 0 (the armour carries from attack
/// to attack).
/// - P(incapacitated) = P(both hit and their wounds reach 6): (2,4),
///   (4,2), (3,3), (3,4), (4,3), (4,4) = (2*18*1 + 14*14 + 2*14*1 + 1) /
///   36^2 = 261/1296 = 29/144. (Each armour read fresh would block both
///   hits too, but a third hit would then still be blocked: see below.)
/// - mean Durability left = 2 - 2 * 11/12 = 1/6.
/// - mean Health lost = 2 * 11/12 * (18*2 + 14*3 + 4)/33 = 41/9.
#[test]
fn two_gunmen_wear_the_armour_down() {
    let all = exact_all(
        SYS,
        "volley",
        &[
            ("attackers", "gunmen"),
            ("gunmen.count", "2"),
            ("gunmen.skill", "0"),
            ("gunmen.damage", "3"),
            ("target_health", "6"),
            ("armour_dr", "1"),
            ("armour_durability", "2"),
        ],
    );
    close(&all, "p_incapacitated", 29.0 / 144.0);
    close(&all, "mean_durability_left", 1.0 / 6.0);
    close(&all, "mean_health_lost", 41.0 / 9.0);
    close(&all, "hits=2", 121.0 / 144.0);
}

/// The ambush by three: the two gunmen and a third like them, enumerated
/// over the three 2D6 here. The third hit meets spent armour (Durability 0
/// after two hits: "it does not provide DR anymore") and deals 3 to 5; a
/// third gunman whose turn begins with the target already down holds. By
/// the enumeration: P(incapacitated) = 709/864, mean Durability left
/// 35/1728, mean Health lost 18041/2592.
#[test]
fn the_third_attacker_meets_spent_armour() {
    let mut counts = [0u64; 3];
    let mut lost = 0i64;
    let mut durability = 0i64;
    let mut n = 0u64;
    let d = two_d6();
    for &(a, pa) in &d {
        for &(b, pb) in &d {
            for &(c, pc) in &d {
                let w = u64::from(pa * pb * pc);
                let mut t = Tgt::new(6, 1, 2);
                for roll in [a, b, c] {
                    if t.incapacitated() {
                        continue; // holds: the target is down already
                    }
                    if roll >= 4 {
                        t.take(3 + (roll - 4) / 4);
                    }
                }
                counts[0] += w * u64::from(t.incapacitated());
                lost += w as i64 * i64::from(6 - t.health);
                durability += w as i64 * i64::from(t.durability);
                n += w;
            }
        }
    }
    assert_eq!(n, 46656);
    let p = counts[0] as f64 / n as f64;
    assert!((p - 709.0 / 864.0).abs() < TOL);
    let all = exact_all(
        SYS,
        "volley",
        &[
            ("attackers", "gunmen"),
            ("gunmen.count", "3"),
            ("gunmen.skill", "0"),
            ("gunmen.damage", "3"),
            ("target_health", "6"),
            ("armour_dr", "1"),
            ("armour_durability", "2"),
        ],
    );
    close(&all, "p_incapacitated", 709.0 / 864.0);
    close(&all, "mean_health_lost", lost as f64 / n as f64);
    close(&all, "mean_health_lost", 18041.0 / 2592.0);
    close(&all, "mean_durability_left", 35.0 / 1728.0);
    close(&all, "mean_durability_left", durability as f64 / n as f64);
}

/// A melee attacker and a ranged one together: the knifeman (skill 2,
/// damage 3) against Parry 7 needs 5+ on 2D6 (30/36) and his Extras count
/// above 7 (2D6 + 2 = 11 or more, 9+ on the dice, 10/36, gives 1); the
/// gunman (skill 0, damage 3) needs 4+ (33/36) against DL 4. Health 5, no
/// armour: both hitting is 6 or more, each alone 3 to 5. P(incapacitated)
/// = P(both hit) + P(exactly one hits with 5 or more): knifeman alone with
/// an Extra can deal 4 at most (3 + 1), gunman alone 5 on a 12 (1/36).
/// = 30/36 * 33/36 + 6/36 * 1/36 = (990 + 6)/1296 = 83/108.
#[test]
fn melee_and_ranged_attackers_meet_their_own_difficulty() {
    let all = exact_all(
        SYS,
        "volley",
        &[
            ("attackers", "knife,gun"),
            ("knife.kind", "melee"),
            ("knife.skill", "2"),
            ("knife.damage", "3"),
            ("gun.skill", "0"),
            ("gun.damage", "3"),
            ("target_parry", "7"),
            ("target_health", "5"),
        ],
    );
    close(&all, "p_incapacitated", 83.0 / 108.0);
}

/// Two grenadiers (area, skill 0, damage 5: "An Area of Effect weapon does
/// not receive extra damage from Extras") at a target of Health 5 with
/// Athletics 2 that dodges once a round, a dodged attack dealing nothing
/// (variant `dodge_damage = "none"`). Any landing hit takes Health to 0
/// (Dying). The first grenade hits on 4+ and is dodged when the target's
/// 2D6 + 2 beats its total; the second cannot be dodged ("Once per
/// round"): P(incapacitated) = 1 - (1 - P(first lands)) * 3/36, with
/// P(first lands) enumerated over both 2D6 here.
#[test]
fn the_target_dodges_once_a_round() {
    let d = two_d6();
    let mut lands = 0u32;
    for &(t, pt) in &d {
        if t < 4 {
            continue;
        }
        for &(g, pg) in &d {
            if g + 2 <= t {
                lands += pt * pg;
            }
        }
    }
    let first = f64::from(lands) / 1296.0;
    let want = 1.0 - (1.0 - first) * 3.0 / 36.0;
    let all = exact_all_with(
        SYS,
        "volley",
        &[
            ("attackers", "grenadiers"),
            ("grenadiers.count", "2"),
            ("grenadiers.kind", "area"),
            ("grenadiers.skill", "0"),
            ("grenadiers.damage", "5"),
            ("target_health", "5"),
            ("target_athletics", "2"),
        ],
        &[("dodge_damage", "none")],
    );
    close(&all, "p_incapacitated", want);
    // "the first attack hits and the target wins the contest"
    let hit_first = 33.0 / 36.0;
    close(&all, "p_dodged", hit_first - first);
}

/// The `attack` scenario's parameters as one attacker `one` of a volley.
fn as_volley<'a>(
    own: &[(&'a str, &'a str)],
    target: &[(&'a str, &'a str)],
) -> Vec<(String, String)> {
    let mut v = vec![("attackers".to_string(), "one".to_string())];
    v.extend(own.iter().map(|(k, x)| (format!("one.{k}"), x.to_string())));
    v.extend(target.iter().map(|(k, x)| (k.to_string(), x.to_string())));
    v
}

/// A volley of one attacker equals the single-attacker scenario (`attack`,
/// or `fight` for turns to kill) on every metric both have.
fn one_equals(
    single: &str,
    volley: &str,
    own: &[(&str, &str)],
    target: &[(&str, &str)],
    variants: &[(&str, &str)],
) {
    let sp: Vec<(&str, &str)> = own.iter().chain(target).copied().collect();
    let s = exact_all_with(SYS, single, &sp, variants);
    let vp = as_volley(own, target);
    let vp: Vec<(&str, &str)> = vp.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let v = exact_all_with(SYS, volley, &vp, variants);
    let mut shared = 0;
    let mut differ = Vec::new();
    for (name, sv) in &s {
        if let Some((_, vv)) = v.iter().find(|(n, _)| n == name) {
            shared += 1;
            if (sv - vv).abs() > TOL {
                differ.push(format!("{name}: {volley} {vv:.15}, {single} {sv:.15}"));
            }
        }
    }
    assert!(shared >= 5, "only {shared} shared metrics");
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// "a volley of one attacker equals the single-attacker scenario's values
/// exactly": `attack` at its ranged RoF, melee, area-with-dodge and
/// knock-out points.
#[test]
fn a_volley_of_one_is_the_attack_scenario() {
    one_equals(
        "attack",
        "volley",
        &[
            ("skill", "3"),
            ("damage", "5"),
            ("rof", "3"),
            ("attacks", "3"),
        ],
        &[
            ("target_health", "10"),
            ("armour_dr", "3"),
            ("armour_durability", "10"),
        ],
        &[],
    );
    one_equals(
        "attack",
        "volley",
        &[
            ("skill", "2"),
            ("kind", "melee"),
            ("damage", "3"),
            ("cover", "cover"),
        ],
        &[
            ("target_parry", "9"),
            ("target_health", "4"),
            ("armour_dr", "2"),
            ("armour_durability", "3"),
        ],
        &[],
    );
    for dodged in ["one_nonlethal", "none"] {
        one_equals(
            "attack",
            "volley",
            &[
                ("skill", "2"),
                ("kind", "area"),
                ("range_penalty", "1"),
                ("damage", "14"),
                ("rof", "2"),
                ("attacks", "2"),
                ("intent", "knock_out"),
            ],
            &[("target_health", "6"), ("target_athletics", "2")],
            &[("dodge_damage", dodged)],
        );
    }
}

/// A one-attacker turns to kill is the `fight`: the same chance to end on
/// each turn, "one" and "all" policies.
#[test]
fn one_attacker_turns_to_kill_is_the_fight() {
    for policy in ["one", "all"] {
        let own = [
            ("skill", "2"),
            ("damage", "4"),
            ("rof", "3"),
            ("attack_ap", "2"),
            ("policy", policy),
        ];
        let target = [
            ("target_health", "8"),
            ("armour_dr", "2"),
            ("armour_durability", "6"),
        ];
        let sp: Vec<(&str, &str)> = own.iter().chain(&target).copied().collect();
        let fight = exact_all(SYS, "fight", &sp);
        let mut vp = as_volley(&own, &target);
        vp.push(("turns".into(), "10".into()));
        let vp: Vec<(&str, &str)> = vp.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let turns = exact_all(SYS, "turns_to_kill", &vp);
        for k in 1..=10 {
            let want = metric(&fight, &format!("turns={k}"));
            close(&turns, &format!("turns={k}"), want);
        }
    }
}

/// Turns to kill by hand: two gunmen (skill 0, damage 3, one attack each,
/// 11/12 to hit) at Health 6 without armour; a hit deals 3 to 5, so the
/// second hit, in whatever round, incapacitates.
/// - round 1: both hit, 121/144;
/// - round 2: one hit in round 1 (2 * 11/12 * 1/12 = 22/144) then at least
///   one in round 2 (143/144), or none in round 1 (1/144) then both
///   (121/144): (22*143 + 121)/144^2 = 3267/20736 = 121/768.
#[test]
fn two_gunmen_take_two_hits_over_the_rounds() {
    let all = exact_all(
        SYS,
        "turns_to_kill",
        &[
            ("attackers", "gunmen"),
            ("gunmen.count", "2"),
            ("gunmen.skill", "0"),
            ("gunmen.damage", "3"),
            ("target_health", "6"),
            ("turns", "3"),
        ],
    );
    close(&all, "turns=1", 121.0 / 144.0);
    close(&all, "turns=2", 121.0 / 768.0);
    close(&all, "taken_out_by_turn=2", 121.0 / 144.0 + 121.0 / 768.0);
    close(&all, "p_dying", metric(&all, "p_taken_out"));
}

/// AP between rounds: a gunman with RoF 2, first attack 2 AP, firing all
/// it can: "the character recovers 4 AP" pays for both (2 + 1), carrying 1,
/// then 5 and 6 ("Any AP over 6 are lost"), two attacks every round. A
/// hit (damage 4 at Health 4) ends it: a round misses both with 3/36 *
/// 10/36 (the second at -2 needs 6+), so turns=1 is 211/216 and turns=2
/// 5/216 * 211/216.
#[test]
fn ap_recovered_each_round_pay_for_the_rof() {
    let all = exact_all(
        SYS,
        "turns_to_kill",
        &[
            ("attackers", "gunman"),
            ("gunman.skill", "0"),
            ("gunman.damage", "4"),
            ("gunman.rof", "2"),
            ("gunman.attack_ap", "2"),
            ("gunman.policy", "all"),
            ("target_health", "4"),
        ],
    );
    close(&all, "turns=1", 211.0 / 216.0);
    close(&all, "turns=2", 5.0 / 216.0 * 211.0 / 216.0);
}

/// `until = "dead"`: a damage-8 hit at Health 5 leaves it Dying at -3 (an
/// Extra of 7 would be needed for -10); a second hit kills ("If the Health
/// drops to -10, the creature immediately dies"), so the attacker goes on
/// attacking the dying target. One attack a round at 11/12: dead on round
/// 2 with (11/12)^2; incapacitated on round 1 with 11/12.
#[test]
fn until_dead_attacks_a_dying_target() {
    let base = [
        ("attackers", "gunman"),
        ("gunman.skill", "0"),
        ("gunman.damage", "8"),
        ("target_health", "5"),
    ];
    let all = exact_all(SYS, "turns_to_kill", &base);
    close(&all, "turns=1", 11.0 / 12.0);
    let dead: Vec<(&str, &str)> = base.iter().copied().chain([("until", "dead")]).collect();
    let all = exact_all(SYS, "turns_to_kill", &dead);
    close(&all, "turns=1", 0.0);
    close(&all, "turns=2", 121.0 / 144.0);
    close(
        &all,
        "turns=3",
        2.0 * 11.0 / 12.0 * 1.0 / 12.0 * 11.0 / 12.0,
    );
}

//! Gorkamorka Community Edition (seed `002_8c1a109281471897.txt`): exact
//! values derived by hand from the seed text, or by brute force over raw
//! dice here, never from the rule code, compared with krunch's exact
//! evaluator.
//!
//! Rules used throughout:
//! - to hit: "Any roll of 1 always misses regardless of Modifiers ... Dice
//!   Roll + Ballistic Skill + Hit Modifiers ... If the result is 7 or more
//!   the Warrior Hits";
//! - the Wound Chart row for Strength 3: "3 | 2 | 3 | 4 | 5 | 6 | 6 | N":
//!   Toughness 3 needs a 4;
//! - the Injury Table "1-2 FLESH WOUND: -1 WS and -1 BS ... 3-5 DOWN ... 6
//!   OUT OF ACTION"; "a Warrior that "recovers" in this manner ... regain a
//!   single Wound by losing WS and BS"; "Warriors reduced to 0 WS and 0 BS
//!   automatically go Out of Action".

#[path = "common/independent.rs"]
mod independent;

use independent::{check, exact};

const SYS: &str = "gce";

// ----------------------------------------------------------------- shooting

fn shot<'a>(extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut v = vec![
        ("toughness", "3"),
        ("wounds", "1"),
        ("target_ws", "3"),
        ("target_bs", "3"),
    ];
    v.extend_from_slice(extra);
    v
}

/// The seed's example: "Krugkikka, an Ork boy, has a BS of 3. He shoots at
/// a Target in the open with his Slugga. The Target is 7” away so there
/// are no Modifiers to worry about. A BS of 3 means that he needs a dice
/// roll of 4+": P(hit) = 1/2 from the built shot. Then S3 against T3 (4+),
/// no save, 1 Damage on 1 Wound, the Injury Table: Out of Action 1/2 * 1/2
/// * 1/6, Down 1/2 * 1/2 * 3/6; "a shot that Hits will Pin a Warrior".
#[test]
fn shooting_krugkikkas_slugga_at_7_inches() {
    let p = shot(&[("weapon", "slugga"), ("bs", "3"), ("range", "7")]);
    check(SYS, "shooting", &p, "p_hit", 0.5);
    check(SYS, "shooting", &p, "mean_wounds", 0.25);
    check(SYS, "shooting", &p, "p_out_of_action", 0.25 / 6.0);
    check(SYS, "shooting", &p, "p_down", 0.25 * 0.5);
    check(SYS, "shooting", &p, "p_pinned", 0.5);
    // Ammo Roll on a natural 6 to hit ("Ammo 4+" for the Slugga): out of
    // ammo on a 6 then 1-3.
    check(SYS, "shooting", &p, "p_out_of_ammo", 1.0 / 12.0);
}

/// Short range: the Shoota's "+1" within 12": BS 3 needs 3+ (4/6).
/// A 7+ target: BS 1, long range (0), in cover (-2), small target (-1):
/// needs 9 on the die, "roll a 6, then ... 6+": 1/36.
#[test]
fn shooting_short_range_and_a_9_to_hit() {
    let near = shot(&[("weapon", "shoota"), ("bs", "3"), ("range", "10")]);
    check(SYS, "shooting", &near, "p_hit", 4.0 / 6.0);
    let far = shot(&[
        ("weapon", "shoota"),
        ("bs", "1"),
        ("range", "15"),
        ("cover", "in"),
        ("small_target", "true"),
    ]);
    check(SYS, "shooting", &far, "p_hit", 1.0 / 36.0);
    // "It is impossible to make a save if the score required is greater
    // than 6": "an ‘Eavy Shoota has a -2 save Modifier" (a custom S4
    // weapon with it here) against a 5+ save leaves none; S4
    // against T3 needs 3+ (row "4 | 2 | 2 | 3 | 4").
    let eavy = shot(&[
        ("strength", "4"),
        ("save_mod", "-2"),
        ("damage", "1"),
        ("ammo", "4+"),
        ("long_range", "24"),
        ("bs", "5"),
        ("range", "4"),
        ("save", "5"),
    ]);
    let hit = exact(SYS, "shooting", &eavy, "p_hit");
    check(SYS, "shooting", &eavy, "mean_unsaved", hit * 4.0 / 6.0);
}

// ---------------------------------------------------- hand-to-hand: round 1

/// Combat scores of one round by brute force over the attack dice: "Weapon
/// Skill (WS) + Highest Attack Dice Roll +/- Modifiers"; "Critical Blows
/// Each roll of a 6 on an Attack Dice, excluding the first, gives a +1";
/// "Opponent Fumbles Each 1 your opponent rolls ... gives your Warrior a
/// +1"; "whoever has the highest wins ... If the scores are the same then
/// whoever has the highest Initiative characteristic wins ... only a
/// single Hit"; "If after all that their Initiative scores are the same
/// then it’s a stalemate". Returns P(strikes = k) for A (k > 0), for B
/// (as -k), and 0 for a stalemate.
fn round_one(a: (i64, usize, i64, i64), b: (i64, usize, i64, i64)) -> Vec<(i64, f64)> {
    // (ws, dice, modifier, initiative)
    let n = a.1 + b.1;
    let all = independent::rolls(n, 6);
    let w = 1.0 / all.len() as f64;
    let mut out: std::collections::BTreeMap<i64, f64> = Default::default();
    for r in &all {
        let (ra, rb) = r.split_at(a.1);
        let score = |own: &[u32], other: &[u32], ws: i64, m: i64| {
            let high = *own.iter().max().unwrap() as i64;
            let sixes = own.iter().filter(|&&f| f == 6).count() as i64;
            let fumbles = other.iter().filter(|&&f| f == 1).count() as i64;
            ws + high + (sixes - 1).max(0) + fumbles + m
        };
        let sa = score(ra, rb, a.0, a.2);
        let sb = score(rb, ra, b.0, b.2);
        let k = match sa.cmp(&sb) {
            std::cmp::Ordering::Equal => (a.3 - b.3).signum(),
            _ => sa - sb,
        };
        *out.entry(k).or_default() += w;
    }
    out.into_iter().collect()
}

/// P(a 1-Wound warrior with WS/BS high enough never to reach 0 and 0) is
/// taken Out of Action by `k` strikes of S3 against T3, no save, in
/// one-on-one combat on foot ("if a Warrior goes Down they go Out of
/// Action immediately"): each strike wounds on 4+ and each wound rolls on
/// the Injury Table, 3-6 out: 1 - (2/3)^k.
fn out_after(k: i64) -> f64 {
    1.0 - (2.0f64 / 3.0).powi(k as i32)
}

/// Both warriors fight with a double-handed S3 weapon (save modifier 0, 1
/// Damage), so their Attacks characteristic is their dice: "All Warriors
/// count as carrying a Knife ... If they carry another single-handed
/// Hand-to-Hand Combat Weapon that is enough to provide the bonus Attack
/// Dice"; "Uxolur ... carries a Demilune ... It’s a double-handed weapon
/// and so his Attacks characteristic shows how many Attack Dice he can
/// roll."
fn h2h<'a>(extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut v = vec![
        ("a_ws", "3"),
        ("a_bs", "10"),
        ("a_attacks", "1"),
        ("a_initiative", "3"),
        ("a_strength", "3"),
        ("a_toughness", "3"),
        ("a_wounds", "1"),
        ("a_weapons", "custom"),
        ("a_custom_strength", "3"),
        ("a_custom_save_mod", "0"),
        ("a_custom_damage", "1"),
        ("a_custom_double_handed", "true"),
        ("b_ws", "2"),
        ("b_bs", "10"),
        ("b_attacks", "2"),
        ("b_initiative", "2"),
        ("b_strength", "3"),
        ("b_toughness", "3"),
        ("b_wounds", "1"),
        ("b_weapons", "custom"),
        ("b_custom_strength", "3"),
        ("b_custom_save_mod", "0"),
        ("b_custom_damage", "1"),
        ("b_custom_double_handed", "true"),
    ];
    v.extend_from_slice(extra);
    v
}

/// The seed's first example's warriors: "Grimgutz (Weapon Skill 3) Charges
/// Krixit (WS 2). He rolls his single Attack Dice ... Krixit rolls his two
/// Attack Dice"; "A Warrior that Charges into combat gains a +1". A wins
/// draws on Initiative 3 against 2.
#[test]
fn hand_to_hand_first_round_charge() {
    let p = h2h(&[("charger", "a")]);
    let dist = round_one((3, 1, 1, 3), (2, 2, 0, 2));
    let a_wins: f64 = dist.iter().filter(|(k, _)| *k > 0).map(|(_, p)| p).sum();
    let b_wins: f64 = dist.iter().filter(|(k, _)| *k < 0).map(|(_, p)| p).sum();
    let strikes: f64 = dist
        .iter()
        .filter(|(k, _)| *k > 0)
        .map(|(k, p)| *k as f64 * p)
        .sum();
    let b_out: f64 = dist
        .iter()
        .filter(|(k, _)| *k > 0)
        .map(|(k, p)| p * out_after(*k))
        .sum();
    let a_out: f64 = dist
        .iter()
        .filter(|(k, _)| *k < 0)
        .map(|(k, p)| p * out_after(-k))
        .sum();
    check(SYS, "hand_to_hand", &p, "p_a_wins_first_round", a_wins);
    check(SYS, "hand_to_hand", &p, "p_b_wins_first_round", b_wins);
    check(SYS, "hand_to_hand", &p, "p_stalemate_first_round", 0.0);
    check(
        SYS,
        "hand_to_hand",
        &p,
        "mean_a_strikes_first_round",
        strikes,
    );
    let one: f64 = dist.iter().filter(|(k, _)| *k == 1).map(|(_, p)| p).sum();
    check(SYS, "hand_to_hand", &p, "a_strikes_first_round=1", one);
    check(SYS, "hand_to_hand", &p, "p_b_out_first_round", b_out);
    check(SYS, "hand_to_hand", &p, "p_a_out_first_round", a_out);
}

/// Equal Initiative: equal scores are a stalemate. Nobody charged, B
/// higher up ("+1 Modifier for the duration of the combat").
#[test]
fn hand_to_hand_first_round_stalemate() {
    let p = h2h(&[
        ("charger", "none"),
        ("b_initiative", "3"),
        ("b_higher_up", "true"),
    ]);
    let dist = round_one((3, 1, 0, 3), (2, 2, 1, 3));
    let stale: f64 = dist.iter().filter(|(k, _)| *k == 0).map(|(_, p)| p).sum();
    let b_wins: f64 = dist.iter().filter(|(k, _)| *k < 0).map(|(_, p)| p).sum();
    check(SYS, "hand_to_hand", &p, "p_stalemate_first_round", stale);
    check(SYS, "hand_to_hand", &p, "p_b_wins_first_round", b_wins);
}

// ---------------------------------------------------------- multiple combat

/// The lone defender's state after `k` strikes of S3 against T3 (4+), no
/// save, 1 Damage, 1 Wound, in a multiple combat (Down is not Out of
/// Action: "This is not the case in situations involving Multiple
/// Combatants"): (P(fallen: Down or Out of Action), P(on its feet with f
/// more Flesh Wounds) for f = 0..). Each strike: no wound 1/2, Flesh Wound
/// 1/6, fallen 1/3. `room` Flesh Wounds more bring WS and BS both to 0:
/// "When this does happen the Warrior automatically goes Out of Action".
fn defender_after(k: i64, room: usize) -> (f64, Vec<f64>) {
    let mut standing = vec![1.0];
    let mut fallen = 0.0;
    for _ in 0..k {
        let mut next = vec![0.0; standing.len() + 1];
        for (f, p) in standing.iter().enumerate() {
            next[f] += p * 0.5;
            if f + 1 >= room {
                fallen += p / 6.0;
            } else {
                next[f + 1] += p / 6.0;
            }
            fallen += p / 3.0;
        }
        standing = next;
    }
    (fallen, standing)
}

/// Two attackers, one after another: "The second attacker gains an
/// additional Attack Dice and +1 to their combat score!" Attackers WS 3,
/// 1 Attack, Initiative 3; the defender WS 3, 1 Attack, Initiative 4 (it
/// wins draws, with one strike). A Flesh Wound costs the defender 1 WS in
/// the second fight; BS 10 falls to 0 after ten. P(the defender Down or
/// Out of Action by the end).
#[test]
fn multiple_combat_two_attackers() {
    let pairs = [
        ("a_ws", "3"),
        ("a_bs", "10"),
        ("a_attacks", "1"),
        ("a_initiative", "3"),
        ("a_strength", "3"),
        ("a_toughness", "3"),
        ("a_wounds", "1"),
        ("a_weapons", "custom"),
        ("a_custom_strength", "3"),
        ("a_custom_save_mod", "0"),
        ("a_custom_damage", "1"),
        ("a_custom_double_handed", "true"),
        ("b_ws", "3"),
        ("b_bs", "10"),
        ("b_attacks", "1"),
        ("b_initiative", "4"),
        ("b_strength", "3"),
        ("b_toughness", "3"),
        ("b_wounds", "1"),
        ("b_weapons", "custom"),
        ("b_custom_strength", "3"),
        ("b_custom_save_mod", "0"),
        ("b_custom_damage", "1"),
        ("b_custom_double_handed", "true"),
        ("attackers", "2"),
    ];
    // First fight: attacker (3, 1 die, +0) against the defender (3, 1 die).
    let mut fallen = 0.0;
    let mut fought_second = 0.0;
    for (k, p) in round_one((3, 1, 0, 3), (3, 1, 0, 4)) {
        let (f, standing) = defender_after(k.max(0), 10);
        fallen += p * f;
        for (flesh, q) in standing.iter().enumerate() {
            // Second fight: 2 dice and +1 for the attacker; the defender's
            // WS down by its Flesh Wounds, never below 0 ("reduced to 0
            // WS"; a characteristic has no negative values).
            fought_second += p * q;
            for (k2, p2) in round_one((3, 2, 1, 3), ((3 - flesh as i64).max(0), 1, 0, 4)) {
                fallen += p * q * p2 * defender_after(k2.max(0), 10 - flesh).0;
            }
        }
    }
    check(
        SYS,
        "multiple_combat",
        &pairs,
        "p_defender_down_or_out",
        fallen,
    );
    check(
        SYS,
        "multiple_combat",
        &pairs,
        "mean_attackers_fought",
        1.0 + fought_second,
    );
    let one = [&pairs[..pairs.len() - 1], &[("attackers", "1")]].concat();
    let single: f64 = round_one((3, 1, 0, 3), (3, 1, 0, 4))
        .iter()
        .map(|(k, p)| p * defender_after((*k).max(0), 10).0)
        .sum();
    check(
        SYS,
        "multiple_combat",
        &one,
        "p_defender_down_or_out",
        single,
    );
}

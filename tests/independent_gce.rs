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

use independent::{check, check_with, exact, h2h};

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
/// no save, 1 Damage on 1 Wound, the Injury Table: Out of Action 1/2 x 1/2
/// x 1/6, Down 1/2 x 1/2 x 3/6; "a shot that Hits will Pin a Warrior",
/// and the Glossary's Pinned is "Hit but not Wounded or receives a Flesh
/// Wound": P(hit) less P(Down) less P(Out of Action).
#[test]
fn shooting_krugkikkas_slugga_at_7_inches() {
    let p = shot(&[("weapon", "slugga"), ("bs", "3"), ("range", "7")]);
    check(SYS, "shooting", &p, "p_hit", 0.5);
    check(SYS, "shooting", &p, "mean_wounds", 0.25);
    check(SYS, "shooting", &p, "p_out_of_action", 0.25 / 6.0);
    check(SYS, "shooting", &p, "p_down", 0.25 * 0.5);
    check(
        SYS,
        "shooting",
        &p,
        "p_pinned",
        0.5 - 0.25 * 0.5 - 0.25 / 6.0,
    );
    // Ammo Roll on a natural 6 to hit ("Ammo 4+" for the Slugga): out of
    // ammo on a 6 then 1-3.
    check(SYS, "shooting", &p, "p_out_of_ammo", 1.0 / 12.0);
}

/// Short range: the Shoota's "+1" within 12": BS 3 needs 3+ (4/6).
/// A 7+ target: BS 1, long range (0), in cover (-2), small target (-1):
/// needs 9 on the die, "roll a 6, then ... 6+": 1/36.
/// A target that starts Down (issue 27: "a target that starts Down or
/// flesh-wounded"). Shooting A Warrior Who Is Down: "A Warrior who is Down
/// might be the easiest Target to Hit ... (you can still shoot the Down
/// Warrior!)" (no Hit Modifier is given for it, so none); "If a Warrior
/// who is Down suffers additional Wounds then roll on the Injury Table
/// again and apply any results to the Warrior as normal." A BS 3 Shoota at
/// 8" ("+1" short range): 3+ (2/3); S3 against T3: 4+ (1/2); a 5+ save
/// fails 4/6: an unsaved wound 2/9. Down, he has no Wounds left, so even
/// a 2-Wound target rolls on the Injury Table at once: a 6 puts him Out of
/// Action (2/9 x 1/6 = 1/27), anything else leaves him Down (a Flesh Wound
/// rolled while Down costs WS and BS but he stays Down: the reading the
/// GCE README states). He cannot be Pinned: "Hit but not Wounded or
/// receives a Flesh Wound ... placed face up" is for a warrior on his feet.
/// Left alone he rolls in each Recovery Phase until he stands (1-2) or
/// goes Out of Action (6): 1/3 of the rest, so eventually out 1/27 +
/// 26/27 x 1/3 = 29/81.
///
/// WS and BS are what a hurt target's shot reads besides his Wounds: "A
/// Warrior may receive multiple Flesh Wounds ... so long as both their WS
/// and BS characteristics do not reach 0. When this does happen the
/// Warrior automatically goes Out of Action." A WS 1, BS 1 target Down:
/// the Flesh Wound (1-2) takes both to 0, Out of Action too: 2/9 x 3/6 =
/// 1/9.
#[test]
fn shooting_a_target_already_down() {
    let down = |ws: &'static str, wounds: &'static str| {
        shot(&[
            ("weapon", "shoota"),
            ("bs", "3"),
            ("range", "8"),
            ("save", "5"),
            ("wounds", wounds),
            ("target_ws", ws),
            ("target_bs", ws),
            ("target_starts", "down"),
        ])
    };
    for wounds in ["1", "2"] {
        let p = down("3", wounds);
        check(SYS, "shooting", &p, "p_hit", 2.0 / 3.0);
        check(SYS, "shooting", &p, "p_wounded", 2.0 / 9.0);
        check(SYS, "shooting", &p, "p_out_of_action", 1.0 / 27.0);
        check(SYS, "shooting", &p, "p_down", 26.0 / 27.0);
        check(SYS, "shooting", &p, "p_flesh_wound", 0.0);
        check(SYS, "shooting", &p, "p_pinned", 0.0);
        check(
            SYS,
            "shooting",
            &p,
            "p_eventually_out_of_action",
            29.0 / 81.0,
        );
    }
    let p = down("1", "1");
    check(SYS, "shooting", &p, "p_out_of_action", 1.0 / 9.0);
    check(SYS, "shooting", &p, "p_down", 8.0 / 9.0);
    // unhurt, the same WS 1, BS 1 target of 1 Wound: Out of Action on a 6
    // or a Flesh Wound (3/6), Down on 3-5 (3/6)
    let mut fresh = down("1", "1");
    fresh.retain(|(k, _)| *k != "target_starts");
    check(SYS, "shooting", &fresh, "p_out_of_action", 1.0 / 9.0);
    check(SYS, "shooting", &fresh, "p_down", 1.0 / 9.0);
}

/// A target that starts flesh-wounded: "they suffer with a -1 WS and -1 BS
/// penalty for the rest of the game"; "treating the Warrior as if they
/// regain a single Wound by losing WS and BS": a 2-Wound WS 2, BS 2 target
/// stands with one Wound left at WS 1, BS 1. The same Shoota (unsaved 2/9)
/// puts him on the Injury Table at once: a Flesh Wound (1-2) takes WS and
/// BS to 0, "the Warrior automatically goes Out of Action", as does a 6:
/// 2/9 x 1/2 = 1/9; Down on 3-5, 1/9; still on his feet, flesh-wounded,
/// 7/9, Pinned when hit and still up: 2/3 - 2/9 = 4/9. Unhurt, the same
/// shot only takes a Wound (no Injury roll: nothing Down or out).
#[test]
fn shooting_a_target_already_flesh_wounded() {
    let p = |starts: &'static str| {
        shot(&[
            ("weapon", "shoota"),
            ("bs", "3"),
            ("range", "8"),
            ("save", "5"),
            ("wounds", "2"),
            ("target_ws", "2"),
            ("target_bs", "2"),
            ("target_starts", starts),
        ])
    };
    let hurt = p("flesh_wounded");
    check(SYS, "shooting", &hurt, "p_out_of_action", 1.0 / 9.0);
    check(SYS, "shooting", &hurt, "p_down", 1.0 / 9.0);
    check(SYS, "shooting", &hurt, "p_flesh_wound", 7.0 / 9.0);
    check(SYS, "shooting", &hurt, "p_pinned", 4.0 / 9.0);
    let unhurt = p("unhurt");
    check(SYS, "shooting", &unhurt, "p_out_of_action", 0.0);
    check(SYS, "shooting", &unhurt, "p_down", 0.0);
    check(SYS, "shooting", &unhurt, "p_flesh_wound", 0.0);
    check(SYS, "shooting", &unhurt, "p_pinned", 2.0 / 3.0);
}

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

/// Two readings of "taken out" in a multiple combat: the Grodkicka example
/// ("After resolving four attackers against him he finally goes Down")
/// and "If the last Warrior of one side goes Down ... the other Down
/// Warriors from their side will be taken Out of Action too" make Down or
/// Out what a player means, while Out of Action this phase is less. Their
/// labels must say which is which: one names "Down or Out", the other "not
/// just Down", and neither label is the other's words.
#[test]
fn multiple_combat_labels_tell_beaten_from_out_of_action() {
    let sc = krunch::systems::rule_set(SYS)
        .unwrap()
        .scenario("multiple_combat")
        .unwrap();
    let decls = (sc.metrics)();
    let label = |id: &str| decls.iter().find(|d| d.id == id).unwrap().label;
    let beaten = label("p_defender_down_or_out");
    let out = label("p_defender_out_of_action");
    assert!(beaten.contains("Down or Out of Action"), "{beaten}");
    assert!(out.contains("not just Down"), "{out}");
    assert!(!out.contains("Down or Out") && !beaten.contains("not just"));
}

// ------------------------------------------------------------------ grenade

/// "Maximum range of throw = (Warrior’s Strength x 2) + 2”" (8" at S3);
/// BS 3 hits on 4+. A miss: "roll a D6 ... Any other result tells you how
/// far off the Target they were (in inches) ... If you rolled a 6 for
/// distance and a direction on the scatter dice then the grenade is a dud
/// ... If on the other hand the scatter dice shows Hit and the distance D6
/// is a 6 then ... Roll on the table below" (the scatter die: 4 arrows, 2
/// "Hit"); Unreliable Explosives "6 The Warrior fumbles the grenade".
#[test]
fn grenade_in_range() {
    let p = [("bs", "3"), ("user_strength", "3"), ("range", "6")];
    check(SYS, "grenade", &p, "p_on_target", 0.5);
    check(SYS, "grenade", &p, "p_scatters", 0.5 * 5.0 / 6.0);
    check(SYS, "grenade", &p, "scatter=3", 0.5 / 6.0);
    check(SYS, "grenade", &p, "p_dud", 0.5 / 6.0 * 4.0 / 6.0);
    check(SYS, "grenade", &p, "p_unreliable", 0.5 / 6.0 * 2.0 / 6.0);
    check(SYS, "grenade", &p, "p_fumbled", 0.5 / 6.0 * 2.0 / 6.0 / 6.0);
}

/// "If you fail to Hit your chosen Target (if you miss, or find you have
/// insufficient range to reach after declaring the shot) then you must
/// roll to see how far it scatters": 10" at S3 (8") always scatters.
#[test]
fn grenade_out_of_range() {
    let p = [("bs", "3"), ("user_strength", "3"), ("range", "10")];
    check(SYS, "grenade", &p, "p_on_target", 0.0);
    check(SYS, "grenade", &p, "p_scatters", 5.0 / 6.0);
    // S5+ throws 12" at most ("it can never be more than 12”").
    let far = [("bs", "3"), ("user_strength", "6"), ("range", "12")];
    check(SYS, "grenade", &far, "p_on_target", 0.5);
}

// --------------------------------------------------------------------- fire

/// "roll a D6 for them before they Move. On a 6 the Fire goes out ...
/// Anything less than 6 causes them to take a Strength 4 Hit ... For each
/// friendly helping add +1 to the D6 roll. A total of 6 causes the Fire to
/// go out." Five helpers: out at once, unhurt.
#[test]
fn fire_with_five_helpers() {
    let p = [
        ("toughness", "3"),
        ("wounds", "1"),
        ("target_ws", "3"),
        ("target_bs", "3"),
        ("helpers", "5"),
    ];
    check(SYS, "fire", &p, "p_unhurt", 1.0);
    check(SYS, "fire", &p, "mean_turns", 1.0);
}

/// No helpers, T3, 1 Wound, WS 3 BS 3: each turn out 1/6; else an S4 hit
/// wounds on 3+ (row "4 | 2 | 2 | 3"): no wound 10/36, a Flesh Wound
/// (burning on) 40/216, Down 60/216 ("Down, which puts the fire out":
/// krunch's reading), Out of Action 20/216. Leaving a state: fire out
/// 36/156, Flesh Wound a = 40/156, Down 60/156, Out of Action 20/156; the
/// third Flesh Wound brings WS and BS to 0: Out of Action.
#[test]
fn fire_burning_on() {
    let p = [
        ("toughness", "3"),
        ("wounds", "1"),
        ("target_ws", "3"),
        ("target_bs", "3"),
    ];
    let a: f64 = 40.0 / 156.0;
    let reach = 1.0 + a + a * a;
    check(SYS, "fire", &p, "p_unhurt", 36.0 / 156.0);
    check(
        SYS,
        "fire",
        &p,
        "p_out_of_action",
        20.0 / 156.0 * reach + a.powi(3),
    );
    check(SYS, "fire", &p, "p_down", 60.0 / 156.0 * reach);
}

// --------------------------------------------------------------------- fall

/// "If a Warrior falls from height greater than 2” ... they take a Hit.
/// The Strength is equal to the number of inches they have fallen rounding
/// up. However a fall of 10” or more will take a Warrior Out of Action
/// instantly. A fall of under 6” inflicts 1 Damage, 6” or more inflicts
/// D3 Damage. Warriors cannot take any sort of saving throw ... Falling
/// like this will Pin Warriors ... regardless of whether any Damage is
/// inflicted."
#[test]
fn fall_heights() {
    let base = |h: &'static str| {
        vec![
            ("toughness", "3"),
            ("wounds", "1"),
            ("target_ws", "3"),
            ("target_bs", "3"),
            ("save", "2"),
            ("height", h),
        ]
    };
    // 3.5": S4 against T3 wounds on 3+; the 2+ save does not count.
    let p = base("3.5");
    check(SYS, "fall", &p, "p_out_of_action", 4.0 / 6.0 / 6.0);
    check(SYS, "fall", &p, "p_down", 4.0 / 6.0 * 3.0 / 6.0);
    // Pinned "regardless of whether any Damage is inflicted", when it ends
    // on its feet (a Down or Out of Action warrior is not also Pinned:
    // krunch's reading): 1 - 4/6 * 4/6.
    check(SYS, "fall", &p, "p_pinned", 1.0 - 16.0 / 36.0);
    check(SYS, "fall", &base("2"), "p_wounded", 0.0);
    check(SYS, "fall", &base("10"), "p_out_of_action", 1.0);
    // 7": S7 against T3 wounds on 2+, D3 Damage on 3 Wounds: E = 5/6 * 2.
    let seven = [
        ("toughness", "3"),
        ("wounds", "3"),
        ("target_ws", "3"),
        ("target_bs", "3"),
        ("height", "7"),
    ];
    check(SYS, "fall", &seven, "mean_damage", 5.0 / 6.0 * 2.0);
}

// --------------------------------------------------------------------- jump

fn jumper<'a>(extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut v = vec![
        ("toughness", "3"),
        ("wounds", "1"),
        ("target_ws", "3"),
        ("target_bs", "3"),
    ];
    v.extend_from_slice(extra);
    v
}

/// "Declare that the Warrior is attempting the jump and then roll a D6. If
/// you get a score of equal or greater than the distance then the Warrior
/// soars across the gap. If not, resolve fall damage (see Fall Damage)."
/// A 3" gap: 3-6 soars across (4/6); 1-2 falls 4": a Strength 4 hit
/// (Wound Chart S4 against T3: 3+, 4/6), no save, 1 Damage on 1 Wound:
/// the Injury Table "3-5 DOWN ... 6 OUT OF ACTION". P(out) = 2/6 * 4/6 *
/// 1/6 = 1/27; P(Down) = 2/6 * 4/6 * 3/6 = 1/9; Pinned when it falls and
/// stays on its feet: 2/6 * (1 - 4/6 * 4/6) = 5/27.
#[test]
fn jump_across_a_gap() {
    let p = jumper(&[("gap", "3"), ("height", "4")]);
    check(SYS, "jump", &p, "p_made_it", 4.0 / 6.0);
    check(SYS, "jump", &p, "p_falls", 2.0 / 6.0);
    check(SYS, "jump", &p, "p_out_of_action", 1.0 / 27.0);
    check(SYS, "jump", &p, "p_down", 1.0 / 9.0);
    check(SYS, "jump", &p, "p_pinned", 5.0 / 27.0);
    // 2.5": a 2 is not "equal or greater", a 3 is
    check(
        SYS,
        "jump",
        &jumper(&[("gap", "2.5"), ("height", "4")]),
        "p_made_it",
        4.0 / 6.0,
    );
    // 1": every roll; 7": none, every jump a fall
    check(
        SYS,
        "jump",
        &jumper(&[("gap", "1"), ("height", "4")]),
        "p_made_it",
        1.0,
    );
    check(
        SYS,
        "jump",
        &jumper(&[("gap", "7"), ("height", "4")]),
        "p_falls",
        1.0,
    );
    // a gap over a 2" drop: "from height greater than 2”" only: no harm
    let low = jumper(&[("gap", "4"), ("height", "2")]);
    check(SYS, "jump", &low, "p_falls", 3.0 / 6.0);
    check(SYS, "jump", &low, "p_wounded", 0.0);
    check(SYS, "jump", &low, "p_pinned", 0.0);
}

/// "If the drop is 3” or less then take an Initiative test. Passing means
/// the jump goes fine ... Failure should be resolved as per the Fall Damage
/// rules" and the Initiative test: "rolling a D6 ... equal or under their
/// Initiative value the test is passed. A roll of 6 is always a failure."
/// Initiative 2, a 3" drop: fails on 3-6 (4/6), then a Strength 3 hit
/// against T3 (4+, 3/6) for 1 Damage on 2 Wounds: wounded 4/6 * 3/6 = 1/3,
/// mean Damage 1/3, never Out of Action.
#[test]
fn jump_down_three_inches_or_less_tests_initiative() {
    let p = [
        ("toughness", "3"),
        ("wounds", "2"),
        ("target_ws", "3"),
        ("target_bs", "3"),
        ("height", "3"),
        ("initiative", "2"),
    ];
    check(SYS, "jump", &p, "p_falls", 4.0 / 6.0);
    check(SYS, "jump", &p, "p_wounded", 1.0 / 3.0);
    check(SYS, "jump", &p, "mean_damage", 1.0 / 3.0);
    check(SYS, "jump", &p, "p_out_of_action", 0.0);
    // Initiative 6 and 10 still fail on a 6
    for i in ["6", "10"] {
        let p = jumper(&[("height", "3"), ("initiative", i)]);
        check(SYS, "jump", &p, "p_falls", 1.0 / 6.0);
    }
}

/// "If the drop is more than 3” then it works like a Fall": no test (no
/// Initiative needed), every jump falls: 3.5" is a Strength 4 hit against
/// T3 (3+), 1 Damage on 1 Wound, Out of Action on a 6: 4/6 * 1/6.
#[test]
fn jump_down_more_than_three_inches_is_a_fall() {
    let p = jumper(&[("height", "3.5")]);
    check(SYS, "jump", &p, "p_made_it", 0.0);
    check(SYS, "jump", &p, "p_falls", 1.0);
    check(SYS, "jump", &p, "p_out_of_action", 4.0 / 6.0 / 6.0);
    // the same as the fall itself, every metric
    let fall = independent::exact_all(SYS, "fall", &p);
    let jump = independent::exact_all(SYS, "jump", &p);
    for (name, v) in fall {
        let j = jump.iter().find(|(n, _)| *n == name).unwrap().1;
        assert!((j - v).abs() < 1e-12, "{name}: jump {j} fall {v}");
    }
}

// --------------------------------------------------------------------- edge

/// "Falling Due to Pinning": "If a Warrior on foot (not embarked on a
/// Vehicle) becomes Pinned within 2” of a drop ... they must pass an
/// Initiative test (roll a D6 – the Warrior needs equal or under their
/// Initiative characteristic). If they fail then they fall over the edge!"
/// Initiative 3 at a 4" drop: 4-6 fails (1/2), then a Strength 4 hit
/// (Wound Chart S4 against T3: 3+, 4/6), no save, 1 Damage on 1 Wound, the
/// Injury Table "1-2 FLESH WOUND ... 3-5 DOWN ... 6 OUT OF ACTION":
/// out 1/2 * 4/6 * 1/6 = 1/18, Down 1/2 * 4/6 * 3/6 = 1/6, Flesh Wound
/// 1/2 * 4/6 * 2/6 = 1/9; "Falling like this will Pin" the faller left
/// standing: 1/2 * (1 - 4/6 * 4/6) = 5/18; one that holds on is not Pinned
/// by a fall (it was Pinned by the shot already).
#[test]
fn edge_pinned_within_two_inches_of_a_drop() {
    let p = jumper(&[("height", "4"), ("initiative", "3")]);
    check(SYS, "edge", &p, "p_falls", 0.5);
    check(SYS, "edge", &p, "p_wounded", 1.0 / 3.0);
    check(SYS, "edge", &p, "p_out_of_action", 1.0 / 18.0);
    check(SYS, "edge", &p, "p_down", 1.0 / 6.0);
    check(SYS, "edge", &p, "p_flesh_wound", 1.0 / 9.0);
    check(SYS, "edge", &p, "p_pinned", 5.0 / 18.0);
    // "A roll of 6 is always a failure": Initiative 6 and 10 fall on a 6
    for i in ["6", "10"] {
        let p = jumper(&[("height", "4"), ("initiative", i)]);
        check(SYS, "edge", &p, "p_falls", 1.0 / 6.0);
    }
    // a 2" drop: "from height greater than 2”" only: it goes over, unharmed
    let low = jumper(&[("height", "2"), ("initiative", "3")]);
    check(SYS, "edge", &low, "p_falls", 0.5);
    check(SYS, "edge", &low, "p_wounded", 0.0);
    check(SYS, "edge", &low, "p_pinned", 0.0);
    // 10": "a fall of 10” or more will take a Warrior Out of Action
    // instantly": out exactly when it falls
    let deep = jumper(&[("height", "10"), ("initiative", "4")]);
    check(SYS, "edge", &deep, "p_out_of_action", 2.0 / 6.0);
}

/// Injuries, "Down": "If a Warrior is on foot ... and goes Down within 2” of
/// a drop then they may fall. The Warrior must pass an Initiative test or
/// will fall and take damage as described in the Fall Damage section", and
/// "If a Warrior who is Down suffers additional Wounds then roll on the
/// Injury Table again". Initiative 2 at a 7" drop: 3-6 falls (4/6); a
/// Strength 7 hit (S7 against T4: 2+, 5/6), D3 Damage ("6” or more inflicts
/// D3 Damage"), a new Injury roll: Out of Action on a 6, so 4/6 * 5/6 * 1/6
/// = 5/54; a Flesh Wound or Down leaves it Down, as does holding on: Down
/// 1 - 5/54 = 49/54. Mean Damage 4/6 * 5/6 * 2 = 10/9; never Pinned (it is
/// Down). Landing on a warrior, "On a 4+ the other Warrior takes the same
/// damage": 4/6 * 5/6 * 1/2 = 5/18, mean 5/18 * 2 = 5/9.
#[test]
fn edge_down_within_two_inches_of_a_drop() {
    let p = [
        ("toughness", "4"),
        ("wounds", "2"),
        ("target_ws", "4"),
        ("target_bs", "3"),
        ("height", "7"),
        ("initiative", "2"),
        ("down", "true"),
        ("lands_on_warrior", "true"),
    ];
    check(SYS, "edge", &p, "p_falls", 4.0 / 6.0);
    check(SYS, "edge", &p, "p_out_of_action", 5.0 / 54.0);
    check(SYS, "edge", &p, "p_down", 49.0 / 54.0);
    check(SYS, "edge", &p, "p_flesh_wound", 0.0);
    check(SYS, "edge", &p, "mean_damage", 10.0 / 9.0);
    check(SYS, "edge", &p, "p_wounded", 4.0 / 6.0 * 5.0 / 6.0);
    check(SYS, "edge", &p, "p_pinned", 0.0);
    check(SYS, "edge", &p, "p_other_hurt", 5.0 / 18.0);
    check(SYS, "edge", &p, "mean_other_damage", 5.0 / 9.0);
}

// ------------------------------------------------------------------- terror

/// "Warriors that start their Movement within 8” of an opponent that causes
/// Terror must immediately take a Leadership Test. If they pass they may
/// move as normal but if they fail they must immediately move 2D6” away! If
/// this move is more than their Movement characteristic they count as
/// running", and the Glossary's Leadership Test (2D6, "Equal or less is a
/// pass. A score of 12 is always a failure"). Leadership 7: 21 of the 36
/// rolls pass, so it flees 15/36 = 5/12; 2D6" is more than Movement 4 on 30
/// of 36, so it runs 5/12 * 5/6 = 25/72; mean 5/12 * 7 = 35/12"; exactly
/// 7" on 6 of 36: 5/72; exactly 2" on 1 of 36: 5/432.
#[test]
fn terror_a_failed_leadership_test_flees_two_d6() {
    let p = [("leadership", "7"), ("movement", "4")];
    check(SYS, "terror", &p, "p_flees", 5.0 / 12.0);
    check(SYS, "terror", &p, "p_runs", 25.0 / 72.0);
    check(SYS, "terror", &p, "mean_flee", 35.0 / 12.0);
    check(SYS, "terror", &p, "flee=7", 5.0 / 72.0);
    check(SYS, "terror", &p, "flee=2", 5.0 / 432.0);
    check(SYS, "terror", &p, "p_calm", 0.0);
    // Leadership 10: 11 and 12 fail (3/36); Movement 10: only 11" and 12"
    // count as running
    let p = [("leadership", "10"), ("movement", "10")];
    check(SYS, "terror", &p, "p_flees", 3.0 / 36.0);
    check(SYS, "terror", &p, "p_runs", 3.0 / 36.0 * 3.0 / 36.0);
}

/// Who does not flee: "Warriors who cause Terror are immune to both Fear
/// and Terror"; "Warriors who cause Fear treat opponents that cause Terror
/// in the same way a normal Warrior would treat an opponent that causes
/// Fear" (Fear moves no one); Stupidity: "The Warrior automatically passes
/// Tests against being affected by Fear or Terror"; "Frenzied Warriors
/// ignore Fear, Terror, Stupidity, and Hatred". Each at Leadership 2,
/// which fails 35 of 36 otherwise.
#[test]
fn terror_spares_the_terrible_the_fearsome_the_stupid_and_the_frenzied() {
    let base = [("leadership", "2"), ("movement", "4")];
    check(SYS, "terror", &base, "p_flees", 35.0 / 36.0);
    for extra in [
        ("causes", "terror"),
        ("causes", "fear"),
        ("stupid", "true"),
        ("frenzy", "true"),
    ] {
        let mut p = base.to_vec();
        p.push(extra);
        check(SYS, "terror", &p, "p_flees", 0.0);
        check(SYS, "terror", &p, "mean_flee", 0.0);
    }
}

/// Frenzy: "If you would like to you can see if your Frenzied Warrior can
/// calm down. If you choose to do this, have the Warrior take a Leadership
/// Test. If they pass they keep their cool for this turn." Calm, it is not
/// Frenzied, so Terror tests it again, and Hatred (which Frenzy ignores)
/// holds: "If there are Hated enemies in Line Of Sight the affected Warrior
/// counts as having Leadership 10." Leadership 8 calms on 26 of 36 (13/18);
/// the Terror test on Leadership 10 fails 3/36: flees 13/18 * 1/12 =
/// 13/216. With no Hated enemy in sight, on its own 8 (fails 10/36):
/// 13/18 * 10/36 = 65/324.
#[test]
fn terror_after_frenzys_calm_down_test() {
    let p = [
        ("leadership", "8"),
        ("movement", "4"),
        ("frenzy", "true"),
        ("calm_down", "true"),
        ("hated_in_sight", "true"),
    ];
    check(SYS, "terror", &p, "p_calm", 13.0 / 18.0);
    check(SYS, "terror", &p, "p_flees", 13.0 / 216.0);
    let p = [
        ("leadership", "8"),
        ("movement", "4"),
        ("frenzy", "true"),
        ("calm_down", "true"),
    ];
    check(SYS, "terror", &p, "p_flees", 65.0 / 324.0);
}

// --------------------------------------------------------------- stupidity

/// Stupidity: "must pass a Leadership at the start of each of their turns.
/// If they pass then they manage to function normally. If not ... Roll a
/// D6. On a 1 - 3 they do not move, on a 4+ they move their full normal
/// Movement in a random direction ... If they’re on a Vehicle they fall off
/// and take a S3 Hit". Leadership 7 fails 15/36 = 5/12 (Glossary: 2D6,
/// "Equal or less is a pass. A score of 12 is always a failure"); half of
/// that stands still and half wanders off, aboard: falls off 5/24. The S3
/// hit: Wound Chart S3 against T4 5+ (1/3), no armour, 1 Damage on 1 Wound,
/// the Injury Table: wounded 5/24 * 1/3 = 5/72, out 5/72 * 1/6 = 5/432,
/// Down 5/72 * 1/2 = 5/144, Flesh Wound 5/72 * 1/3 = 5/216; Pinned (Hit and
/// still on its feet) 5/24 * (1 - 1/3 * 4/6) = 35/216.
#[test]
fn stupidity_wanders_off_a_vehicle_and_takes_a_strength_3_hit() {
    let p = [
        ("leadership", "7"),
        ("aboard", "true"),
        ("toughness", "4"),
        ("wounds", "1"),
        ("target_ws", "3"),
        ("target_bs", "3"),
    ];
    check(SYS, "stupidity", &p, "p_stupid", 5.0 / 12.0);
    check(SYS, "stupidity", &p, "p_stands_still", 5.0 / 24.0);
    check(SYS, "stupidity", &p, "p_wanders", 5.0 / 24.0);
    check(SYS, "stupidity", &p, "p_falls_off", 5.0 / 24.0);
    check(SYS, "stupidity", &p, "p_wounded", 5.0 / 72.0);
    check(SYS, "stupidity", &p, "p_out_of_action", 5.0 / 432.0);
    check(SYS, "stupidity", &p, "p_down", 5.0 / 144.0);
    check(SYS, "stupidity", &p, "p_flesh_wound", 5.0 / 216.0);
    check(SYS, "stupidity", &p, "p_pinned", 35.0 / 216.0);
    // on foot: it wanders, nothing falls
    let foot: Vec<_> = p.iter().copied().filter(|(k, _)| *k != "aboard").collect();
    check(SYS, "stupidity", &foot, "p_wanders", 5.0 / 24.0);
    check(SYS, "stupidity", &foot, "p_falls_off", 0.0);
    check(SYS, "stupidity", &foot, "p_wounded", 0.0);
    check(SYS, "stupidity", &foot, "p_pinned", 0.0);
}

/// The S3 hit is saved as any hit: the Armour Modifiers table gives 0 for
/// Strength 3, so a 6+ save stops 1/6. A Grot (Leadership 5: passes on 10
/// of 36, fails 13/18), T3 (S3: 4+, 1/2): wanders off 13/36, wounded
/// 13/36 * 1/2 * 5/6 = 65/432, out 65/2592. Frenzy: "Frenzied Warriors
/// ignore ... Stupidity": no test failed. Hatred: "counts as having
/// Leadership 10": fails on 11 and 12 only, 3/36.
#[test]
fn stupidity_saves_frenzy_and_hatred() {
    let p = [
        ("leadership", "5"),
        ("aboard", "true"),
        ("toughness", "3"),
        ("wounds", "1"),
        ("save", "6"),
        ("target_ws", "2"),
        ("target_bs", "3"),
    ];
    check(SYS, "stupidity", &p, "p_falls_off", 13.0 / 36.0);
    check(SYS, "stupidity", &p, "p_wounded", 65.0 / 432.0);
    check(SYS, "stupidity", &p, "p_out_of_action", 65.0 / 2592.0);
    let mut frenzied = p.to_vec();
    frenzied.push(("frenzy", "true"));
    check(SYS, "stupidity", &frenzied, "p_stupid", 0.0);
    check(SYS, "stupidity", &frenzied, "p_wounded", 0.0);
    let mut hating = p.to_vec();
    hating.push(("hated_in_sight", "true"));
    check(SYS, "stupidity", &hating, "p_stupid", 3.0 / 36.0);
}

// ------------------------------------------------------------------- bottle

/// "you’ll need to take a Leadership Test based on your leader’s
/// Leadership (so roll 2D6 - a score equal or under their characteristic
/// is a pass) ... If not, your Mob loses this game", then "Each Warrior
/// carrying a Scrap Counter must pass a Leadership Test to keep it. For
/// each Scrap Counter onboard a Vehicle roll a D6 - on a 2+ the Mob keeps
/// it." and "For each counter a Mob manages to keep add D6 teef".
/// Leadership 7: 2D6 of 7 or less is 21/36, so it Bottles Out on 15/36.
/// Two carriers at Ld 7 keep 7/12 each, two counters aboard 5/6 each:
/// kept 2*7/12 + 2*5/6 = 17/6; teef 17/6 * 7/2 = 119/12; all four
/// (7/12)^2 (5/6)^2 = 1225/5184; none (5/12)^2 (1/6)^2 = 25/5184; dropped
/// this turn 15/36 * (4 - 17/6) = 35/72.
#[test]
fn bottle_test_and_scrap_counters() {
    let p = [
        ("leadership", "7"),
        ("carriers", "2"),
        ("carrier_leadership", "7"),
        ("aboard", "2"),
    ];
    check(SYS, "bottle", &p, "p_bottles_out", 15.0 / 36.0);
    check(SYS, "bottle", &p, "mean_kept", 17.0 / 6.0);
    check(SYS, "bottle", &p, "mean_teef", 119.0 / 12.0);
    check(SYS, "bottle", &p, "p_keeps_all", 1225.0 / 5184.0);
    check(SYS, "bottle", &p, "p_keeps_none", 25.0 / 5184.0);
    check(SYS, "bottle", &p, "mean_dropped", 35.0 / 72.0);
}

/// "you can either choose to Bottle Out or take a Bottle Test": by choice
/// it always Bottles Out; one carrier at Ld 6 keeps on 15/36, three aboard
/// 5/6 each: kept 15/36 + 5/2 = 35/12, dropped 4 - 35/12 = 13/12.
/// "Bottle Tests must be taken once you have suffered 25% or more
/// casualties": 2 of 8 is 25% (a test at Ld 8 fails on 10/36), 1 of 8 and
/// 2 of 9 are not (no test, nothing dropped), 2 of 7 is.
#[test]
fn bottle_by_choice_and_the_threshold() {
    let chosen = [
        ("voluntary", "true"),
        ("carriers", "1"),
        ("carrier_leadership", "6"),
        ("aboard", "3"),
    ];
    check(SYS, "bottle", &chosen, "p_bottles_out", 1.0);
    check(SYS, "bottle", &chosen, "mean_kept", 35.0 / 12.0);
    check(SYS, "bottle", &chosen, "mean_dropped", 13.0 / 12.0);
    let due = |models: &'static str, casualties: &'static str| {
        [
            ("leadership", "8"),
            ("aboard", "1"),
            ("models", models),
            ("casualties", casualties),
        ]
    };
    check(SYS, "bottle", &due("8", "2"), "p_bottles_out", 10.0 / 36.0);
    check(SYS, "bottle", &due("7", "2"), "p_bottles_out", 10.0 / 36.0);
    check(SYS, "bottle", &due("8", "1"), "p_bottles_out", 0.0);
    check(SYS, "bottle", &due("9", "2"), "p_bottles_out", 0.0);
    check(SYS, "bottle", &due("9", "2"), "mean_dropped", 0.0);
    // another threshold from the scenario: "unless otherwise stated it is 25%"
    let mut half = due("8", "3").to_vec();
    half.push(("threshold", "50"));
    check(SYS, "bottle", &half, "p_bottles_out", 0.0);
}

// ------------------------------------------------------------------- thrust

/// The Ork Trukk: "1 2+, 2 3+, 3+ 4+". Three Thrusts of 6" after 6" of Gas
/// Engines: all three 5/6 * 4/6 * 3/6; the Thruster Buster Table on a
/// failure: "1 Spin ... 2 D6” forward and Spin ... 3 Swerve and move D6”
/// forward ... 4+ D6” forward".
#[test]
fn thrust_three_declared() {
    let p = [("vehicle", "ork_trukk"), ("thrusts", "3")];
    let all = 5.0 / 6.0 * 4.0 / 6.0 * 3.0 / 6.0;
    let made = 5.0 / 6.0 + 5.0 / 6.0 * 4.0 / 6.0 + all;
    check(SYS, "thrust", &p, "p_all_thrusts", all);
    check(SYS, "thrust", &p, "mean_thrusts_made", made);
    check(SYS, "thrust", &p, "p_buster_spin", (1.0 - all) / 6.0);
    let dist = 6.0 + 6.0 * made + (1.0 - all) * 5.0 / 6.0 * 3.5;
    check(SYS, "thrust", &p, "mean_distance", dist);
}

/// "If you wish to turn then the Driver must pass a Leadership Test (roll
/// 2D6 - the total must be equal or under their Leadership
/// characteristic) ... if they fail then move the Vehicle another D6”
/// forward - that’s the end of its Movement": one Thrust then a turn at
/// Ld 7 (21/36).
#[test]
fn thrust_and_turn() {
    let p = [
        ("vehicle", "ork_trukk"),
        ("thrusts", "1"),
        ("turn_leadership", "7"),
    ];
    check(SYS, "thrust", &p, "p_turn_failed", 5.0 / 6.0 * 15.0 / 36.0);
    check(SYS, "thrust", &p, "p_all_thrusts", 5.0 / 6.0 * 21.0 / 36.0);
}

// ----------------------------------------------------------- out of control

/// "One Crew member may attempt to take control each turn and will succeed
/// on a D6 result of 4+ ... If they fail then they can try again next turn
/// ... However if it’s a Small Vehicle (e.g. a Bike) they only get one
/// attempt. After that it’ll become Immobilised".
#[test]
fn out_of_control_taking_the_wheel() {
    let large = [("crew_able", "1")];
    check(SYS, "out_of_control", &large, "p_regained", 1.0);
    check(SYS, "out_of_control", &large, "mean_turns", 2.0);
    check(SYS, "out_of_control", &large, "turns=3", 0.125);
    let small = [("crew_able", "1"), ("size", "small")];
    check(SYS, "out_of_control", &small, "p_immobilised", 0.5);
    check(SYS, "out_of_control", &small, "p_regained", 0.5);
}

/// "If no one else has taken control and a Driver recovers from being Down
/// then they automatically bring the Vehicle under control"; a Down
/// warrior rolls the Injury Table in its Recovery Phase: "A result of
/// Flesh Wound lets the Warrior get back in the fight ... A result of Down
/// leaves the Warrior face down ... An Out of Action result removes the
/// Warrior": with no crew, recovered 2/3, lost 1/3, a turn ending it 1/2.
#[test]
fn out_of_control_down_driver() {
    let p = [("crew_able", "0"), ("driver", "down")];
    check(SYS, "out_of_control", &p, "p_by_driver", 2.0 / 3.0);
    check(SYS, "out_of_control", &p, "p_adrift", 1.0 / 3.0);
    check(SYS, "out_of_control", &p, "mean_turns", 2.0);
    let gone = [("crew_able", "0"), ("driver", "gone")];
    check(SYS, "out_of_control", &gone, "p_adrift", 1.0);
}

// ------------------------------------------------------------- vehicle hits

/// "Hit location D6" on the Ork Trukk ("1 Crew 8, 2 Fixed Weapon 8, 3
/// Gubbins 8, 4 Wheels 8, 5 Driver 8, 6 Engines 10"); "roll a D6 and add
/// the Strength of the Hit. If that score equals or exceeds the listed
/// Armour value ... the Hit Penetrates": S5 needs 3+ on armour 8, 5+ on
/// 10: 5/6 * 4/6 + 1/6 * 2/6 = 22/36.
#[test]
fn vehicle_hits_penetration() {
    let p = [("vehicle", "ork_trukk"), ("strength", "5")];
    check(SYS, "vehicle_hits", &p, "p_penetrated", 22.0 / 36.0);
    check(SYS, "vehicle_hits", &p, "mean_pen_engines", 2.0 / 36.0);
    check(SYS, "vehicle_hits", &p, "mean_pen_wheels", 4.0 / 36.0);
    // "things like Ramming and Crashing automatically Penetrate": D3
    // points, one location roll each.
    let ram = [
        ("vehicle", "ork_trukk"),
        ("auto_penetrate", "true"),
        ("damage", "D3"),
    ];
    check(SYS, "vehicle_hits", &ram, "mean_penetrating", 2.0);
    check(SYS, "vehicle_hits", &ram, "p_penetrated", 1.0);
}

/// Two shots at BS 3 (4+ to hit, +1 as the Trukk is a Large Target:
/// "Vehicles and buildings which are usually Large Targets (+1 to Hit)",
/// so 3+), S5: each penetrates 2/3 * 22/36.
#[test]
fn vehicle_hits_two_shots() {
    let p = [
        ("vehicle", "ork_trukk"),
        ("strength", "5"),
        ("bs", "3"),
        ("shots", "2"),
    ];
    let one: f64 = 2.0 / 3.0 * 22.0 / 36.0;
    check(
        SYS,
        "vehicle_hits",
        &p,
        "p_penetrated",
        1.0 - (1.0 - one).powi(2),
    );
    check(SYS, "vehicle_hits", &p, "mean_penetrating", 2.0 * one);
}

/// Full auto at a vehicle ("Firing on Full Auto": "Roll a sustained fire
/// dice to see how many shots you can resolve"; the die's "faces are 1, 1,
/// 2, 2, 3, and \"JAM!\""; "When a jam is rolled then no shots are
/// inflicted by that dice"). The Six-Shoota's one die ("He rolls a single
/// sustained fire dice for it"), every shot hitting and penetrating
/// automatically for 1 point: shots 0-3 with mean 9/6, none on a JAM
/// (1/6). The 'Eavy Shoota's two dice ("An ‘Eavy Shoota can use both dice
/// or just one") at BS 3, S5: each shot penetrates q = 2/3 * 22/36 (3+
/// to hit a Large Target, as above), P(none) = E[(1 - q)^N] = g(1 - q)^2 with g(x) = (1 + 2x + 2x^2
/// + x^3) / 6, and one die fired gives g(1 - q).
#[test]
fn vehicle_hits_full_auto() {
    let six = [
        ("vehicle", "ork_trukk"),
        ("weapon", "six_shoota"),
        ("fire_mode", "full_auto"),
        ("auto_penetrate", "true"),
    ];
    check(SYS, "vehicle_hits", &six, "mean_hits", 1.5);
    check(SYS, "vehicle_hits", &six, "mean_penetrating", 1.5);
    check(SYS, "vehicle_hits", &six, "p_penetrated", 5.0 / 6.0);
    let q: f64 = 2.0 / 3.0 * 22.0 / 36.0;
    let g = |x: f64| (1.0 + 2.0 * x + 2.0 * x * x + x * x * x) / 6.0;
    let eavy = [
        ("vehicle", "ork_trukk"),
        ("weapon", "eavy_shoota"),
        ("strength", "5"),
        ("bs", "3"),
        ("fire_mode", "full_auto"),
    ];
    check(SYS, "vehicle_hits", &eavy, "mean_penetrating", 3.0 * q);
    check(
        SYS,
        "vehicle_hits",
        &eavy,
        "p_penetrated",
        1.0 - g(1.0 - q).powi(2),
    );
    let one_die = [&eavy[..], &[("sf_fired", "1")]].concat();
    check(
        SYS,
        "vehicle_hits",
        &one_die,
        "p_penetrated",
        1.0 - g(1.0 - q),
    );
    // a single shot stays a single shot
    let single = [&eavy[..4], &[("fire_mode", "single")]].concat();
    check(SYS, "vehicle_hits", &single, "mean_penetrating", q);
}

// ------------------------------------------------------------- vehicle fire

/// "roll a D6 for each Location that is on Fire! On a 1 - 5 it takes a S4
/// Hit. On a 6 the Fire goes out ... Each Warrior helping ... Modifies the
/// dice roll above by +1" (the seed: "3+3 giving the 6 needed"). Wheels
/// (armour 8) with two helpers: out on 4+ (1/2 a turn); else an S4 hit
/// penetrating on 4+. Per turn: out 1/2, a penetrating hit 1/4, a hit that
/// does not penetrate 1/4: at least one penetration before it goes out
/// 1/3, at least two 1/9; turns geometric, mean 2.
#[test]
fn vehicle_fire_wheels() {
    let p = [
        ("vehicle", "ork_trukk"),
        ("location", "wheels"),
        ("helpers", "2"),
    ];
    check(SYS, "vehicle_fire", &p, "p_penetrated_1_plus", 1.0 / 3.0);
    check(SYS, "vehicle_fire", &p, "p_penetrated_2_plus", 1.0 / 9.0);
    check(SYS, "vehicle_fire", &p, "mean_turns", 2.0);
    let engines = [("vehicle", "ork_trukk"), ("location", "engines")];
    // Engines (10): S4 penetrates on 6; out 1/6, a penetration 5/36.
    check(
        SYS,
        "vehicle_fire",
        &engines,
        "p_penetrated_1_plus",
        (5.0 / 36.0) / (5.0 / 36.0 + 1.0 / 6.0),
    );
}

// ----------------------------------------------------------- vehicle hazard

/// "If the Warrior is Down then they cannot avoid being squashed.
/// Otherwise they may take an Initiative Test (rolling equal or under
/// their Initiative characteristic on a D6) ... If they fail to avoid the
/// Vehicle they take a S3 Hit": I 3 dodges 1/2; S3 against T3 wounds on
/// 4+; 1 Wound: the Injury Table.
#[test]
fn vehicle_hazard_squash() {
    let p = [
        ("hazard", "squash"),
        ("initiative", "3"),
        ("toughness", "3"),
        ("wounds", "1"),
        ("target_ws", "3"),
        ("target_bs", "3"),
    ];
    check(SYS, "vehicle_hazard", &p, "p_avoided", 0.5);
    check(SYS, "vehicle_hazard", &p, "p_wounded", 0.25);
    check(SYS, "vehicle_hazard", &p, "p_out_of_action", 0.25 / 6.0);
    check(SYS, "vehicle_hazard", &p, "p_down", 0.25 * 0.5);
    // "If the Warrior is Down then they cannot avoid being squashed": no
    // Initiative Test, so no Initiative needed; the S3 hit wounds 1/2.
    let down = [
        ("hazard", "squash"),
        ("down", "true"),
        ("toughness", "3"),
        ("wounds", "1"),
        ("target_ws", "3"),
        ("target_bs", "3"),
    ];
    check(SYS, "vehicle_hazard", &down, "p_avoided", 0.0);
    check(SYS, "vehicle_hazard", &down, "p_wounded", 0.5);
}

/// "If the Vehicle in question has already moved more than 6” or used its
/// Thrusters, they must roll 4+ on a D6. If they fail they will take a
/// Strength 3 Hit"; not needed otherwise.
#[test]
fn vehicle_hazard_get_on_off() {
    let base = |fast: &'static str| {
        vec![
            ("hazard", "get_on_off"),
            ("vehicle_fast", fast),
            ("toughness", "3"),
            ("wounds", "1"),
            ("target_ws", "3"),
            ("target_bs", "3"),
            ("save", "6"),
        ]
    };
    check(SYS, "vehicle_hazard", &base("true"), "p_avoided", 0.5);
    // A 6+ save against S3 (modifier 0): unsaved 5/6.
    check(
        SYS,
        "vehicle_hazard",
        &base("true"),
        "p_wounded",
        0.5 * 0.5 * 5.0 / 6.0,
    );
    check(SYS, "vehicle_hazard", &base("false"), "p_avoided", 1.0);
}

// ---------------------------------------------------------------------- ram

fn trukks<'a>(impact: &'a str, extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut v = vec![
        ("impact", impact),
        ("rammer", "ork_trukk"),
        ("target", "ork_trukk"),
    ];
    v.extend_from_slice(extra);
    v
}

/// "Rakes: Roll a D3 for each Vehicle to determine how much Damage each
/// takes"; "Sideswipes: Roll a D6 for each Vehicle. On a 4+ the Vehicle
/// takes 1 point of Damage"; "Ramming into the rear ... does no Damage to
/// the Rammer and 1 point of Damage to the Rammed Vehicle"; "A Vehicle
/// Ramming the side of another takes 1 point of Damage and inflicts D3";
/// the target's driver "may take a Leadership Test to avoid a Ram of any
/// kind (roll 2D6 - if the total is less than or equal to their
/// Leadership ...)". Two (large) Ork Trukks.
#[test]
fn ram_rake_sideswipe_shunt_t_bone() {
    check(SYS, "ram", &trukks("rake", &[]), "mean_rammer_damage", 2.0);
    check(SYS, "ram", &trukks("rake", &[]), "mean_target_damage", 2.0);
    let swerve = trukks("rake", &[("target_leadership", "7")]);
    check(SYS, "ram", &swerve, "p_impact", 15.0 / 36.0);
    check(SYS, "ram", &swerve, "mean_target_damage", 15.0 / 36.0 * 2.0);
    check(
        SYS,
        "ram",
        &trukks("sideswipe", &[]),
        "mean_target_damage",
        0.5,
    );
    check(SYS, "ram", &trukks("shunt", &[]), "mean_rammer_damage", 0.0);
    check(SYS, "ram", &trukks("shunt", &[]), "mean_target_damage", 1.0);
    check(
        SYS,
        "ram",
        &trukks("t_bone", &[]),
        "mean_rammer_damage",
        1.0,
    );
    check(
        SYS,
        "ram",
        &trukks("t_bone", &[]),
        "target_damage=3",
        1.0 / 3.0,
    );
}

/// Head-on: "each player places a dice to choose (in secret) which
/// direction ... if they both Swerve towards each other ... or both choose
/// to move straight on then a Head-On Ram occurs": uniform choices meet in
/// 3 of 9 pairs; "D6 Damage to both ... roll a D6 for each Vehicle - on a
/// 4+ that Vehicle is Immobilised". "Small Vehicles inflict no Damage on
/// larger Vehicles if they T-bone them".
#[test]
fn ram_head_on_and_small_vehicles() {
    let p = trukks("head_on", &[]);
    check(SYS, "ram", &p, "p_impact", 1.0 / 3.0);
    check(SYS, "ram", &p, "mean_target_damage", 3.5 / 3.0);
    check(SYS, "ram", &p, "p_rammer_immobilised", 1.0 / 6.0);
    let small = [
        ("impact", "t_bone"),
        (
            "rammer_locations",
            "crew 8, fixed weapon 8, gubbins 8, wheels 8, driver 8, engines 10",
        ),
        ("rammer_size", "small"),
        ("target", "ork_trukk"),
    ];
    check(SYS, "ram", &small, "mean_target_damage", 0.0);
    check(SYS, "ram", &small, "mean_rammer_damage", 1.0);
}

// --------------------------------------------------------------------- gate

/// "For each Penetrating Hit on the Gate roll a D6: 1 - 2 ... unaffected. 3
/// Something shifted! Future rolls on this table receive a +1 bonus
/// (cumulative). 4 There’s a gap! ... 5 Carnage! The gate is destroyed ...
/// 6 Off the hinges!"; "Penetrating the Gates Armour follows the same
/// rules as Penetrating Vehicle Armour": one S6 hit a turn against Armour
/// 9 penetrates on 3+. Until a gap (or worse): a Markov chain over the
/// bonus, solved here from the table.
#[test]
fn gate_one_shot_a_turn() {
    let p = [("attack", "shots"), ("strength", "6"), ("hits", "1")];
    let pen = 4.0 / 6.0;
    // From the highest bonus down: (P(gap), P(carnage), P(off), E[turns]).
    let mut at: Vec<(f64, f64, f64, f64)> = vec![(0.0, 0.0, 0.0, 0.0); 5];
    for b in (0..4).rev() {
        let (mut stay, mut shift, mut gap, mut carnage, mut off) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for r in 1..=6 {
            match r + b {
                ..=2 => stay += 1.0 / 6.0,
                3 => shift += 1.0 / 6.0,
                4 => gap += 1.0 / 6.0,
                5 => carnage += 1.0 / 6.0,
                _ => off += 1.0 / 6.0,
            }
        }
        // A turn: no penetration (1 - pen) or a stay result keeps the state.
        let keep = 1.0 - pen + pen * stay;
        let leave = 1.0 - keep;
        let next = at[b as usize + 1];
        at[b as usize] = (
            pen * (gap + shift * next.0) / leave,
            pen * (carnage + shift * next.1) / leave,
            pen * (off + shift * next.2) / leave,
            (1.0 + pen * shift * next.3) / leave,
        );
    }
    let (gap, carnage, off, turns) = at[0];
    assert!((gap + carnage + off - 1.0).abs() < 1e-12);
    check(SYS, "gate", &p, "p_ends_gap", gap);
    check(SYS, "gate", &p, "p_ends_carnage", carnage);
    check(SYS, "gate", &p, "p_ends_off_hinges", off);
    check(SYS, "gate", &p, "mean_turns", turns);
}

// ----------------------------------------------------------------- boarding

/// One boarder against the driver alone, both with the warriors of
/// [`h2h`] (WS 3, 1 Attack, S3 double-handed weapons, T3, 1 Wound, no
/// save): "Each Warrior must pass an Initiative Test. Roll equal to or
/// under the Warrior’s Initiative ... If the Initiative Test is failed ...
/// they take a S3 Hit". The boarder (I 4) wins draws against the crew
/// member (I 3); the boarders' charge +1 and boarding's obstacle -1 cancel
/// ("Vehicles count as Obstacles. As a result, the normal bonus for
/// Charging is cancelled out for the first Combat").
fn boarding_pairs() -> Vec<(String, &'static str)> {
    let warrior = |who: &'static str, init: &'static str| {
        vec![
            (format!("{who}_ws"), "3"),
            (format!("{who}_bs"), "3"),
            (format!("{who}_attacks"), "1"),
            (format!("{who}_initiative"), init),
            (format!("{who}_strength"), "3"),
            (format!("{who}_toughness"), "3"),
            (format!("{who}_wounds"), "1"),
            (format!("{who}_weapons"), "custom"),
            (format!("{who}_custom_strength"), "3"),
            (format!("{who}_custom_save_mod"), "0"),
            (format!("{who}_custom_damage"), "1"),
            (format!("{who}_custom_double_handed"), "true"),
        ]
    };
    let mut owned = warrior("boarder", "4");
    owned.extend(warrior("defender", "3"));
    owned.extend([
        ("vehicle".to_string(), "ork_trukk"),
        ("boarders".to_string(), "1"),
        ("crew".to_string(), "1"),
    ]);
    owned
}

/// The variant `boarding_loser = "down_or_out"` (the seed's "Losing
/// Combat" paragraph): "Warriors who go Down or Out of Action after a round
/// of Hand-to-Hand Combat have lost and are thrown overboard". The driver
/// is thrown when the boarder wins by k strikes and they put it Down or
/// Out of Action: each strike 1/3, and a third Flesh Wound (WS 3 and BS 3
/// to 0) puts it Out of Action.
#[test]
fn boarding_one_on_one_down_or_out_is_thrown() {
    let owned = boarding_pairs();
    let p: Vec<(&str, &str)> = owned.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    let v = [("boarding_loser", "down_or_out")];
    let leap = 4.0 / 6.0;
    let thrown: f64 = round_one((3, 1, 0, 4), (3, 1, 0, 3))
        .iter()
        .filter(|(k, _)| *k > 0)
        .map(|(k, p)| p * defender_after(*k, 3).0)
        .sum();
    check_with(SYS, "boarding", &p, &v, "mean_failed_leaps", 1.0 - leap);
    check_with(SYS, "boarding", &p, &v, "p_all_crew_thrown", leap * thrown);
    check_with(SYS, "boarding", &p, &v, "p_driver_thrown", leap * thrown);
}

/// The default (MECHANICS.md's reading and the seed's Step 11 -
/// Aftermath): "if the fight is taking place onboard a Vehicle the loser of
/// a round of Hand-to-Hand Combat will be chucked overboard! Regardless of
/// whether they’re Wounded or not the price of losing is being ejected
/// from the Vehicle." (MECHANICS.md: "loser thrown overboard with a
/// Strength 3 hit"). The seed contradicts itself ("Losing Combat" throws
/// only the Down or Out of Action, the variant above); docs/DESIGN.md
/// Readings argues the default. The driver is thrown whenever the boarder
/// (aboard on I 4: 4/6) wins the round; the boarder, whenever it loses.
#[test]
fn boarding_one_on_one_every_loser_is_thrown() {
    let owned = boarding_pairs();
    let p: Vec<(&str, &str)> = owned.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    let round = round_one((3, 1, 0, 4), (3, 1, 0, 3));
    let wins: f64 = round.iter().filter(|(k, _)| *k > 0).map(|(_, p)| p).sum();
    let loses: f64 = round.iter().filter(|(k, _)| *k < 0).map(|(_, p)| p).sum();
    check(SYS, "boarding", &p, "p_all_crew_thrown", 4.0 / 6.0 * wins);
    check(SYS, "boarding", &p, "p_driver_thrown", 4.0 / 6.0 * wins);
    check(SYS, "boarding", &p, "mean_crew_thrown", 4.0 / 6.0 * wins);
    check(SYS, "boarding", &p, "p_unopposed", 4.0 / 6.0 * wins);
    check(
        SYS,
        "boarding",
        &p,
        "mean_boarders_aboard",
        4.0 / 6.0 * (1.0 - loses),
    );
}

/// Issue 24's reproducer: one boarder (WS 10, S 1, I 5) against one crew
/// member (WS 1, T 10, I 1), other stats 3, 1 Wound each. The boarder gets
/// aboard on an Initiative Test of 5 (5/6) and always wins (WS 10 + a die
/// beats WS 1 + a die + at most one fumble), but its S 1 strikes never
/// wound T 10 (no roll on the To Wound chart). Step 11 throws the unhurt
/// loser anyway: 5/6; "Losing Combat" never throws it: 0.
#[test]
fn boarding_unhurt_loser_is_thrown_under_step_11() {
    let mut owned = boarding_pairs();
    for (k, v) in [
        ("boarder_ws", "10"),
        ("boarder_strength", "1"),
        ("boarder_custom_strength", "1"),
        ("boarder_initiative", "5"),
        ("defender_ws", "1"),
        ("defender_toughness", "10"),
        ("defender_initiative", "1"),
    ] {
        owned.iter_mut().find(|(n, _)| n == k).unwrap().1 = v;
    }
    let p: Vec<(&str, &str)> = owned.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    check(SYS, "boarding", &p, "p_all_crew_thrown", 5.0 / 6.0);
    let v = [("boarding_loser", "down_or_out")];
    check_with(SYS, "boarding", &p, &v, "p_all_crew_thrown", 0.0);
}

/// "For each additional close combat weapon they are armed with they may
/// roll an extra Attack Dice ... All Warriors count as carrying a Knife
/// ... If they carry another single-handed Hand-to-Hand Combat Weapon that
/// is enough to provide the bonus Attack Dice" (Krixit: "a Choppa and an
/// Attack characteristic of 1 rolls two Attack Dice"): with single-handed
/// weapons A rolls 2 dice and B 3.
#[test]
fn hand_to_hand_specialisation_bonus_die() {
    let p = h2h(&[
        ("charger", "a"),
        ("a_custom_double_handed", "false"),
        ("b_custom_double_handed", "false"),
    ]);
    let dist = round_one((3, 2, 1, 3), (2, 3, 0, 2));
    let a_wins: f64 = dist.iter().filter(|(k, _)| *k > 0).map(|(_, p)| p).sum();
    check(SYS, "hand_to_hand", &p, "p_a_wins_first_round", a_wins);
    let strikes: f64 = dist
        .iter()
        .filter(|(k, _)| *k > 0)
        .map(|(k, p)| *k as f64 * p)
        .sum();
    check(
        SYS,
        "hand_to_hand",
        &p,
        "mean_a_strikes_first_round",
        strikes,
    );
}

/// Pilin' On as outcomes, the seed's defenders: "Skiffa takes the lead
/// with Bruvov and Leggit piling in to help. Skiffa receives a bonus of +2
/// to their combat score and +2 Attack Dice"; "Soxem takes the lead ...
/// with Gerdat helping him. Soxem gets a bonus of +1 and an additional
/// Attack Dice"; "Injuries are inflicted only on the lead Warrior". One
/// boarder against a crew of 3 (one group: 3 dice, +2) or 2 (2 dice, +1).
/// "If a group of Warriors loses a round ... whichever Warrior was taking
/// the lead is thrown overboard. The rest remain on the Vehicle": the lead
/// alone is thrown when the boarder wins (the default), or when the
/// boarder wins and puts it Down or Out of Action (the "Losing Combat"
/// variant, as above).
#[test]
fn boarding_pilin_on_defenders() {
    for (crew, dice, bonus) in [("3", 3usize, 2i64), ("2", 2, 1)] {
        let mut owned = boarding_pairs();
        owned.retain(|(k, _)| k != "crew");
        owned.push(("crew".to_string(), crew));
        owned.push(("crew_pile_on".to_string(), "one_group"));
        let p: Vec<(&str, &str)> = owned.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        let round = round_one((3, 1, 0, 4), (3, dice, bonus, 3));
        let won = round.iter().filter(|(k, _)| *k > 0);
        let thrown: f64 = won.clone().map(|(k, p)| p * defender_after(*k, 3).0).sum();
        let v = [("boarding_loser", "down_or_out")];
        check_with(
            SYS,
            "boarding",
            &p,
            &v,
            "mean_crew_thrown",
            4.0 / 6.0 * thrown,
        );
        let wins: f64 = won.map(|(_, p)| p).sum();
        check(SYS, "boarding", &p, "mean_crew_thrown", 4.0 / 6.0 * wins);
        check(SYS, "boarding", &p, "p_all_crew_thrown", 0.0);
    }
}

/// Counting until the gate is destroyed: a gap no longer ends it ("There’s
/// a gap!" leaves the gate standing), only "5 Carnage!" or "6 Off the
/// hinges!" do; "3 Something shifted!" still adds +1 for the rolls after.
/// Unopposed warriors: "inflict a number of automatic Hits equal to their
/// Weapon Skill ... resolved as normal against the Gates Armour Value":
/// one warrior of WS 1 with S9 penetrates Armour 9 always (D6 + 9 >= 9).
#[test]
fn gate_until_destroyed() {
    let p = [
        ("attack", "unopposed"),
        ("warriors", "1"),
        ("ws", "1"),
        ("strength", "9"),
        ("until", "destroyed"),
    ];
    // From the highest bonus down: (P(carnage), P(off), E[turns]); one
    // penetrating hit a turn.
    let mut at = [(0.0, 0.0, 0.0); 6];
    for b in (0..5).rev() {
        let (mut stay, mut shift, mut carnage, mut off) = (0.0, 0.0, 0.0, 0.0);
        for r in 1..=6 {
            match r + b {
                3 => shift += 1.0 / 6.0,
                5 => carnage += 1.0 / 6.0,
                t if t >= 6 => off += 1.0 / 6.0,
                _ => stay += 1.0 / 6.0,
            }
        }
        let leave = 1.0 - stay;
        let next = at[b as usize + 1];
        at[b as usize] = (
            (carnage + shift * next.0) / leave,
            (off + shift * next.1) / leave,
            (1.0 + shift * next.2) / leave,
        );
    }
    let (carnage, off, turns) = at[0];
    check(SYS, "gate", &p, "p_ends_gap", 0.0);
    check(SYS, "gate", &p, "p_ends_carnage", carnage);
    check(SYS, "gate", &p, "p_ends_off_hinges", off);
    check(SYS, "gate", &p, "mean_turns", turns);
}

/// One helper: "For each friendly helping add +1 to the D6 roll. A total of
/// 6 causes the Fire to go out": out on 5+ (q = 1/3 a turn); else the S4
/// hit wounds on 3+. Unhurt = out before any wound: q / (q + (1 - q) *
/// 4/6); Down (which ends it) per turn (1 - q) * 4/6 * 3/6, Flesh Wounds
/// carry on as in `fire_burning_on`.
#[test]
fn fire_with_one_helper() {
    let p = [
        ("toughness", "3"),
        ("wounds", "1"),
        ("target_ws", "3"),
        ("target_bs", "3"),
        ("helpers", "1"),
    ];
    let q: f64 = 1.0 / 3.0;
    let leave = q + (1.0 - q) * 4.0 / 6.0;
    let a = (1.0 - q) * 4.0 / 6.0 * 2.0 / 6.0 / leave;
    let down = (1.0 - q) * 4.0 / 6.0 * 3.0 / 6.0 / leave;
    check(SYS, "fire", &p, "p_unhurt", q / leave);
    check(SYS, "fire", &p, "p_down", down * (1.0 + a + a * a));
}

/// Tests at their limits: "If a Warrior is required to take an Initiative
/// Test this is done by rolling a D6 ... equal or under their Initiative
/// value the test is passed. A roll of 6 is always a failure": leaping
/// aboard with I 6 (or 9) passes 5/6. Leadership: "Roll 2D6. Equal or less
/// is a pass. A score of 12 is always a failure": turning after a Thrust
/// at Ld 12 passes 35/36.
#[test]
fn initiative_and_leadership_automatic_failures() {
    for init in ["6", "9"] {
        let p = [
            ("hazard", "board"),
            ("initiative", init),
            ("toughness", "3"),
            ("wounds", "1"),
            ("target_ws", "3"),
            ("target_bs", "3"),
        ];
        check(SYS, "vehicle_hazard", &p, "p_avoided", 5.0 / 6.0);
    }
    let p = [
        ("vehicle", "ork_trukk"),
        ("thrusts", "1"),
        ("turn_leadership", "12"),
    ];
    check(SYS, "thrust", &p, "p_turn_failed", 5.0 / 6.0 / 36.0);
}

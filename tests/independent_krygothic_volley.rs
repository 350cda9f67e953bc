//! Kry-Gothic `volley` and `turns_to_kill` (seed `000_e9ab87dd866033e2.txt`):
//! expected values derived by hand from the seed text, never from the rule
//! code; krunch's numbers come only through the public build entry and its
//! exact evaluator ([`independent::exact_all`]).
//!
//! Rules used throughout (seed sentences):
//! - Roll to hit: RC dice against "base target of 5"; "The player can keep
//!   the amount of dice as per the number of the keep dice to the left of
//!   the K"; no range modifier between SR and LR.
//! - Roll to wound: "with the target being the targets body
//!   attribute+armour bonuses-Number after the K. For each dice that pass,
//!   you cause one wound each to a maximum of the number after the S";
//!   Average Joe Body 2, armour 1, a 6K2 or 3K2 weapon: target 1, every die
//!   passes.
//! - A critical pass (18 from sixes: three sixes) doubles the damage.
//! - Body: "Any hits that exceed this attribute are counted as a wound
//!   (although this is discussed later, most units can only take 2
//!   wounds)": the target is out at 2, and nobody fires at it after.
//! - Pinning: "Unit was hit by a ranged attack: Take the units WILL stat,
//!   and roll against target 5. Increase the target number by 1 for every
//!   unit over the first that is also firing"; "If a unit is shot by 2 or
//!   more different units in a row ... but is not hit, make a WILL roll
//!   against target 3" (+1 per unit after the second, Example #2); a 7+
//!   target is a 6 then the target less 4 on the re-roll (so 8 is a 6 then
//!   4+, 1/12 a die). "To get the unit unpinned, you can spend a single AP
//!   to re-roll the WILL roll".

#[path = "common/independent.rs"]
mod independent;

use independent::{TOL, exact_all, metric};

const SYS: &str = "krygothic";

fn close(got: f64, want: f64, what: &str) {
    assert!((got - want).abs() < TOL, "{what}: {got} against {want}");
}

/// The worked volley: an autocannon (6K2, S2 given) on RC 3 at 10", then
/// three Average Joes (RC 2) with pistols (3K2S1) at 5", at an Average Joe
/// (Body 2, Speed 3, WILL 3) with armour 1.
const GUN_AND_PISTOLS: &[(&str, &str)] = &[
    ("attackers", "gun,joes"),
    ("gun.weapon", "autocannon"),
    ("gun.weapon_strength", "2"),
    ("gun.firer_rc", "3"),
    ("gun.range", "10"),
    ("joes.count", "3"),
    ("joes.firer", "average_joe"),
    ("joes.weapon", "pistol"),
    ("joes.range", "5"),
    ("target", "average_joe"),
    ("target_armour", "1"),
];

/// By hand. The gun: three dice against 5, passes k of 3 at 1/3: 0 with
/// 8/27, 1 with 12/27, 2 or 3 (two wounds, "to a maximum of the number
/// after the S") with 7/27 less the three sixes, 1/216, which double to 4:
/// 0 wounds 64/216, 1 wound 96/216, 2 wounds 55/216, 4 wounds 1/216. A
/// Joe: two dice against 5, a wound unless both miss, 1 - (2/3)^2 = 5/9.
/// Out at 2 wounds: the gun's 2 or 4 (7/27); its 1 then any Joe (1 -
/// (4/9)^3 = 665/729); its 0 then two Joes of three ((3 x 25 x 4 + 125)
/// / 729 = 425/729): 7/27 + 4/9 x 665/729 + 8/27 x 425/729 =
/// 16483/19683. The test, four units firing, taken only by a target still
/// in: hit (target 5 + 3 = 8, three dice fail with (11/12)^3 =
/// 1331/1728): the gun's 1 and no Joe (4/9 x 64/729) or the gun's 0 and
/// one Joe (8/27 x 240/729); not hit by any (8/27 x 64/729, target 3 + 2
/// = 5, failed with (2/3)^3 = 8/27). P(pinned) = 2688/19683 x 1331/1728 +
/// 4096/531441 = 59998/531441, unhurt 4096/531441.
#[test]
fn a_heavy_weapon_and_three_pistols_by_hand() {
    let all = exact_all(SYS, "volley", GUN_AND_PISTOLS);
    close(metric(&all, "p_out"), 16483.0 / 19683.0, "P(out)");
    close(metric(&all, "p_pinned"), 59998.0 / 531441.0, "P(pinned)");
    close(
        metric(&all, "p_pinned_unhurt"),
        4096.0 / 531441.0,
        "P(pinned, unhurt)",
    );
    close(
        metric(&all, "p_pinned_or_out"),
        16483.0 / 19683.0 + 59998.0 / 531441.0,
        "P(pinned or out)",
    );
    // hit by someone: all but the gun's 0 passes and no Joe
    close(
        metric(&all, "p_hit"),
        1.0 - 8.0 / 27.0 * 64.0 / 729.0,
        "P(hit)",
    );
    // the test is taken whenever the target is still in (four units: even
    // unhit it tests)
    close(metric(&all, "p_test"), 1.0 - 16483.0 / 19683.0, "P(test)");
}

/// A volley of one unit is the `ranged` scenario's shot: the same
/// P(hit), P(wound), mean wounds and wounds distribution, where the target
/// cannot be taken out (30 wounds), for several shots.
#[test]
fn a_volley_of_one_unit_equals_ranged() {
    let shots: [&[(&str, &str)]; 3] = [
        &[
            ("weapon", "pistol"),
            ("firer_rc", "3"),
            ("range", "4"),
            ("target_body", "3"),
            ("target_armour", "3"),
            ("target_speed", "3"),
        ],
        &[
            ("weapon", "pistol"),
            ("firer_rc", "4"),
            ("range", "7"),
            ("target_body", "2"),
            ("target_speed", "3"),
            ("fire_mode", "snap"),
            ("flanking", "true"),
        ],
        &[
            ("weapon", "autocannon"),
            ("weapon_strength", "2"),
            ("weapon_suppressive", "true"),
            ("fire_mode", "suppressive"),
            ("firer", "average_joe"),
            ("target", "average_joe"),
            ("range", "10"),
            ("dark", "true"),
        ],
    ];
    let target = [
        "target",
        "target_body",
        "target_armour",
        "target_speed",
        "dark",
        "cover",
    ];
    for shot in shots {
        let one = exact_all(SYS, "ranged", shot);
        let named: Vec<(String, String)> = shot
            .iter()
            .map(|(k, v)| {
                let k = if target.contains(k) {
                    k.to_string()
                } else {
                    format!("a.{k}")
                };
                (k, v.to_string())
            })
            .collect();
        let mut pairs: Vec<(&str, &str)> = named
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        pairs.extend([
            ("attackers", "a"),
            ("target_will", "3"),
            ("target_wounds", "30"),
        ]);
        let volley = exact_all(SYS, "volley", &pairs);
        let mut shared = 0;
        for (name, want) in &one {
            let same = ["p_hit", "p_wound", "mean_wounds"].contains(&name.as_str())
                || name.starts_with("wounds=");
            if same {
                let got = volley.iter().find(|(n, _)| n == name).map_or(0.0, |x| x.1);
                close(got, *want, &format!("{shot:?} {name}"));
                shared += 1;
            }
        }
        assert!(shared >= 4, "{shot:?}: {shared} metrics shared");
    }
}

/// N identical units, as one kind of count N or as N kinds of one, are
/// `pinning_fire`'s N units on every metric both report, where the target
/// cannot be taken out (30 wounds).
#[test]
fn identical_units_equal_pinning_fire() {
    let shot: &[(&str, &str)] = &[
        ("weapon", "autocannon"),
        ("weapon_strength", "2"),
        ("weapon_suppressive", "true"),
        ("fire_mode", "suppressive"),
        ("firer", "average_joe"),
        ("range", "10"),
    ];
    let target: &[(&str, &str)] = &[("target", "average_joe"), ("target_will", "4")];
    for units in [1usize, 2, 3] {
        let n = units.to_string();
        let mut pf: Vec<(&str, &str)> = shot.to_vec();
        pf.extend(target);
        pf.push(("units", &n));
        let want = exact_all(SYS, "pinning_fire", &pf);
        let names: Vec<String> = (0..units).map(|i| format!("u{i}")).collect();
        let keyed: Vec<(String, String)> = names
            .iter()
            .flat_map(|u| {
                shot.iter()
                    .map(move |(k, v)| (format!("{u}.{k}"), v.to_string()))
            })
            .collect();
        let list = names.join(",");
        let mut kinds: Vec<(&str, &str)> = keyed
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        kinds.extend(target);
        kinds.extend([("attackers", list.as_str()), ("target_wounds", "30")]);
        let counted: Vec<(String, String)> = shot
            .iter()
            .map(|(k, v)| (format!("u.{k}"), v.to_string()))
            .collect();
        let mut one_kind: Vec<(&str, &str)> = counted
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        one_kind.extend(target);
        one_kind.extend([("attackers", "u"), ("u.count", &n), ("target_wounds", "30")]);
        for pairs in [kinds, one_kind] {
            let got = exact_all(SYS, "volley", &pairs);
            for (name, w) in &want {
                let g = got.iter().find(|(m, _)| m == name).map_or(0.0, |x| x.1);
                close(g, *w, &format!("{units} units {name}"));
            }
        }
    }
}

/// Turns to kill, one Joe (pistol, RC 2 at 5": a wound with 5/9, at most
/// one a volley) at an Average Joe with armour 1 (out at 2 wounds): never
/// out on turn 1; out on turn k with (k - 1) (5/9)^2 (4/9)^(k - 2): turn
/// 2 25/81, turn 3 200/729; by turn 3 25/81 + 200/729 = 425/729.
///
/// Until pinned or out: "Unit was hit by a ranged attack ... roll against
/// target 5" (one unit), WILL 3 fails with (2/3)^3 = 8/27; missed by one
/// unit, no test. Turn 1: 5/9 x 8/27 = 40/243. Turn 2: from no wound (4/9:
/// missed) a hit and a failed test, 40/243; from one wound and a passed
/// test (5/9 x 19/27 = 95/243) any hit takes it out, 5/9: 4/9 x 40/243 +
/// 95/243 x 5/9 = 635/2187.
///
/// Re-rolls: one turn, until out, one AP: pinned on turn 1 (40/243), then
/// "re-roll the WILL roll" against 5, failed with 8/27: still pinned
/// 320/6561; with no AP, 40/243.
#[test]
fn turns_to_kill_one_joe_by_hand() {
    let base: &[(&str, &str)] = &[
        ("attackers", "joe"),
        ("joe.firer", "average_joe"),
        ("joe.weapon", "pistol"),
        ("joe.range", "5"),
        ("target", "average_joe"),
        ("target_armour", "1"),
    ];
    let all = exact_all(SYS, "turns_to_kill", base);
    close(metric(&all, "turns=1"), 0.0, "turn 1");
    close(metric(&all, "turns=2"), 25.0 / 81.0, "turn 2");
    close(metric(&all, "turns=3"), 200.0 / 729.0, "turn 3");
    close(
        metric(&all, "taken_out_by_turn=3"),
        425.0 / 729.0,
        "by turn 3",
    );
    let q: f64 = 4.0 / 9.0;
    let beyond = q.powi(8) + 8.0 * (5.0 / 9.0) * q.powi(7);
    close(metric(&all, "turns>8"), beyond, "not out in 8");
    let mut pinned = base.to_vec();
    pinned.push(("until", "pinned_or_out"));
    let all = exact_all(SYS, "turns_to_kill", &pinned);
    close(metric(&all, "turns=1"), 40.0 / 243.0, "pinned turn 1");
    close(
        metric(&all, "turns=2"),
        635.0 / 2187.0,
        "pinned or out turn 2",
    );
    for (ap, want) in [("0", 40.0 / 243.0), ("1", 320.0 / 6561.0)] {
        let mut one = base.to_vec();
        one.extend([("turns", "1"), ("unpin_ap", ap)]);
        let all = exact_all(SYS, "turns_to_kill", &one);
        close(metric(&all, "p_pinned_at_end"), want, "pinned at the end");
        close(metric(&all, "mean_turns_pinned"), want, "turns pinned");
    }
}

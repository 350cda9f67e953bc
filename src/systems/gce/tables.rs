//! GCE tables, each quoted from the Gorkamorka Community Edition core rules
//! (`seeds/002_8c1a109281471897.txt`).

use crate::dice::{NamedDie, Roller};

/// The seed text GCE is written from, the Gorkamorka Community Edition
/// core rules: what these tables quote and what the tests read them from.
/// Here, below every other GCE module, so a test anywhere in GCE can name
/// it without importing the rule set's `mod.rs`.
pub const SEED: &str = "002_8c1a109281471897.txt";

/// Wound Chart (Shooting, "Step 3 – Resolve Wounds", "Wound Chart"):
/// "Roll a D6 and compare the Strength value of your weapon with the
/// Toughness characteristic of your Target ... A result of “N” on the Wound
/// chart indicates it is impossible to Wound". Rows are Strength 1-10,
/// columns Toughness 1-10; `0` stands for the chart's "N" and "-".
pub const WOUND_CHART: [[u8; 10]; 10] = [
    [4, 5, 6, 6, 0, 0, 0, 0, 0, 0],
    [3, 4, 5, 6, 6, 0, 0, 0, 0, 0],
    [2, 3, 4, 5, 6, 6, 0, 0, 0, 0],
    [2, 2, 3, 4, 5, 6, 6, 0, 0, 0],
    [2, 2, 2, 3, 4, 5, 6, 6, 0, 0],
    [2, 2, 2, 2, 3, 4, 5, 6, 6, 0],
    [2, 2, 2, 2, 2, 3, 4, 5, 6, 6],
    [2, 2, 2, 2, 2, 2, 3, 4, 5, 6],
    [2, 2, 2, 2, 2, 2, 2, 3, 4, 5],
    [2, 2, 2, 2, 2, 2, 2, 2, 3, 4],
];

/// D6 score needed to wound, or `None` where the chart says "N"/"-".
/// Strength 0 (an S1 weapon exploding at S-1) cannot wound.
pub fn wound_needed(strength: u8, toughness: u8) -> Option<u8> {
    if strength == 0 {
        return None;
    }
    let s = usize::from(strength.min(10)) - 1;
    let t = usize::from(toughness.clamp(1, 10)) - 1;
    match WOUND_CHART[s][t] {
        0 => None,
        n => Some(n),
    }
}

/// Score the to-hit D6 needs for `ballistic_skill` and total `modifier`:
/// "Dice Roll + Ballistic Skill + Hit Modifiers = Shooting score. If the
/// result is 7 or more the Warrior Hits" (Step 2 – Roll to Hit).
pub fn hit_needed(ballistic_skill: i32, modifier: i32) -> i32 {
    7 - ballistic_skill - modifier
}

/// Resolves the to-hit roll given the first die already rolled.
///
/// "Any roll of 1 always misses regardless of Modifiers." For 7+ ("Shots
/// that need a D6 score of 7+ To Hit"): "if the result is a 6 ... Roll a
/// further D6": Score Required 7 / 8 / 9 / 10 -> Additional D6 4+ / 5+ / 6+
/// / Miss.
pub fn hit_with(first: u32, needed: i32, dice: &mut impl Roller) -> bool {
    if first == 1 {
        return false;
    }
    match needed {
        ..=6 => first as i32 >= needed,
        7..=9 => first == 6 && dice.d6() as i32 >= needed - 3,
        _ => false,
    }
}

/// Exact P(hit) for the to-hit roll (the closed form the tests check
/// against the enumerator).
pub fn hit_probability(needed: i32) -> f64 {
    match needed {
        ..=2 => 5.0 / 6.0,
        3..=6 => f64::from(7 - needed) / 6.0,
        7..=9 => f64::from(10 - needed) / 36.0,
        _ => 0.0,
    }
}

/// Armour Modifiers table (Hand-to-Hand Combat, "Step 8 - Saving Throw"):
/// "Model’s Strength | Armour Save Modifier: 0-3 | 0, 4 | -1, 5 | -2,
/// 6 | -3, 7 | -4, 8 | -5, 9+ | -6"; the "Varies" save modifier of a
/// ranged weapon follows it ("Strength 4 gives a Save Modifier of -1,
/// Strength 9 gives -6").
pub fn save_modifier_for_strength(strength: u8) -> i32 {
    -(i32::from(strength.clamp(3, 9)) - 3)
}

/// Injury Table (Shooting, "Injuries"): "1-2 FLESH WOUND: -1 WS and -1 BS
/// for the rest of the game. 3-5 DOWN: Place the Model face down. 6 OUT OF
/// ACTION: Remove the Model from play."
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Injury {
    /// 1-2.
    FleshWound,
    /// 3-5.
    Down,
    /// 6.
    OutOfAction,
}

/// Reads the Injury Table for a D6 score.
pub fn injury(d6: u32) -> Injury {
    match d6 {
        1 | 2 => Injury::FleshWound,
        3..=5 => Injury::Down,
        _ => Injury::OutOfAction,
    }
}

/// The Sustained Fire die (Introduction, "Dice"): "Its faces are 1, 1, 2,
/// 2, 3, and "JAM!" ... treating it as a D3 with rolls of 6 becoming a JAM!
/// result works nicely." Returns the shots, or `None` for a JAM.
pub fn sustained_fire(d6: u32) -> Option<u32> {
    match d6 {
        6 => None,
        n => Some(n.div_ceil(2)),
    }
}

/// The Sustained Fire die as a named die of the dice-expression language
/// (`sf`): "Its faces are 1, 1, 2, 2, 3, and "JAM!"", the JAM counting 0
/// shots. A test checks the faces against [`sustained_fire`].
pub const SUSTAINED_FIRE: NamedDie = NamedDie {
    name: "sf",
    faces: &[1, 1, 2, 2, 3, 0],
    about: "Sustained Fire die (JAM = 0)",
};

/// Leadership Tests (Glossary): "Roll 2D6. Equal or less is a pass. A
/// score of 12 is always a failure." Hand-to-hand psychology, driving and
/// rams all test this way.
pub fn leadership_test(dice: &mut impl Roller, leadership: u32) -> bool {
    let score = dice.d6() + dice.d6();
    score != 12 && score <= leadership
}

/// Initiative Test (Characteristics, "Initiative"): "rolling a D6 ... If
/// the value is equal or under their Initiative value the test is passed. A
/// roll of 6 is always a failure."
pub fn initiative_test(dice: &mut impl Roller, initiative: u32) -> bool {
    let d = dice.d6();
    d != 6 && d <= initiative
}

/// D3 (Introduction, "Dice"): "D6 1-2 -> 1, 3-4 -> 2, 5-6 -> 3".
pub fn d3(dice: &mut impl Roller) -> u32 {
    dice.d6().div_ceil(2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::enumerate;

    fn chance(test: impl Fn(&mut crate::dice::Replay) -> bool) -> f64 {
        enumerate(64, |r| test(r))
            .unwrap()
            .iter()
            .filter(|(pass, _)| *pass)
            .map(|(_, p)| p)
            .sum()
    }

    #[test]
    fn leadership_twelve_always_fails_and_two_always_passes_from_two() {
        use crate::systems::seed_text::{available, seed};
        if available(SEED) {
            assert!(seed(SEED).contains(
                "Leadership Tests\nRoll 2D6. Equal or less is a pass. A score of 12 is always a failure."
            ));
        }
        // Ld 12 passes on 2-11 only: 35/36, not 1.
        assert!((chance(|r| leadership_test(r, 12)) - 35.0 / 36.0).abs() < 1e-15);
        assert!((chance(|r| leadership_test(r, 7)) - 21.0 / 36.0).abs() < 1e-15);
        assert!((chance(|r| leadership_test(r, 1))).abs() < 1e-15);
        // Initiative 6 still fails on a 6.
        assert!((chance(|r| initiative_test(r, 6)) - 5.0 / 6.0).abs() < 1e-15);
    }

    #[test]
    fn hit_table_for_bs_one_to_ten_matches_the_seed() {
        // "| BS | 1 | 2 | ... | 10 |" -> "| D6 | 6 | 5+ | 4+ | 3+ | 2+ | 1 | 0 | -1 | -2 | -3 |"
        let seed_row = [6, 5, 4, 3, 2, 1, 0, -1, -2, -3];
        // P(hit) by hand: 6 on the D6 is 1/6, 5+ 2/6, ... 2+ 5/6; "Any roll
        // of 1 always misses regardless of Modifiers", so 1, 0 and below
        // are 5/6 too
        let p_hit = [
            1.0 / 6.0,
            2.0 / 6.0,
            3.0 / 6.0,
            4.0 / 6.0,
            5.0 / 6.0,
            5.0 / 6.0,
            5.0 / 6.0,
            5.0 / 6.0,
            5.0 / 6.0,
            5.0 / 6.0,
        ];
        for ((bs, want), p) in (1..=10).zip(seed_row).zip(p_hit) {
            assert_eq!(hit_needed(bs, 0), want, "BS {bs}");
            assert_eq!(hit_probability(want), p, "BS {bs}");
        }
    }

    #[test]
    fn krugkikka_bs3_needs_4_plus() {
        // "Krugkikka, an Ork boy, has a BS of 3 ... needs a dice roll of 4+"
        assert_eq!(hit_needed(3, 0), 4);
    }

    #[test]
    fn zodzod_bs6_small_target_hits_on_2_plus() {
        // "ZodZod ... BS of 6. Even if he’s Shooting at a small Target (-1 to
        // Hit) he still Hits on a dice roll of 2+."
        assert_eq!(hit_needed(6, -1), 2);
        let mut dice = crate::dice::BatchedRoller::new(0, &[]);
        assert!(!hit_with(1, hit_needed(6, -1), &mut dice));
        assert!(hit_with(2, hit_needed(6, -1), &mut dice));
    }

    #[test]
    fn seven_plus_chain_matches_closed_form_and_enumerator() {
        for needed in -3..=11 {
            let out = enumerate(100, |r| {
                let first = r.d6();
                hit_with(first, needed, r)
            })
            .unwrap();
            let p: f64 = out.iter().filter(|(h, _)| *h).map(|(_, p)| p).sum();
            assert!(
                (p - hit_probability(needed)).abs() < 1e-15,
                "needed {needed}"
            );
        }
        // 7 -> 6 then 4+ = 1/12; 9 -> 6 then 6 = 1/36; 10 -> miss
        assert_eq!(hit_probability(7), 3.0 / 36.0);
        assert_eq!(hit_probability(9), 1.0 / 36.0);
        assert_eq!(hit_probability(10), 0.0);
    }

    #[test]
    fn save_modifier_table_matches_the_seed() {
        let seed = [
            (0, 0),
            (3, 0),
            (4, -1),
            (5, -2),
            (6, -3),
            (7, -4),
            (8, -5),
            (9, -6),
            (10, -6),
        ];
        for (s, m) in seed {
            assert_eq!(save_modifier_for_strength(s), m, "S{s}");
        }
    }

    #[test]
    fn the_sustained_fire_die_is_the_rules_own() {
        let faces: Vec<i64> = (1..=6)
            .map(|d6| sustained_fire(d6).map_or(0, i64::from))
            .collect();
        assert_eq!(SUSTAINED_FIRE.faces, faces);
        let d = crate::dice::Expr::parse_with("sf+sf", &[SUSTAINED_FIRE])
            .unwrap()
            .exact()
            .unwrap();
        assert!((d.pmf(6) - 1.0 / 36.0).abs() < 1e-12);
        assert!((d.mean() - 3.0).abs() < 1e-12);
    }

    #[test]
    fn injury_and_sustained_fire_faces() {
        let inj: Vec<Injury> = (1..=6).map(injury).collect();
        assert_eq!(
            inj,
            [
                Injury::FleshWound,
                Injury::FleshWound,
                Injury::Down,
                Injury::Down,
                Injury::Down,
                Injury::OutOfAction
            ]
        );
        let sf: Vec<Option<u32>> = (1..=6).map(sustained_fire).collect();
        assert_eq!(sf, [Some(1), Some(1), Some(2), Some(2), Some(3), None]);
    }

    use crate::systems::seed_text::{seed, table_cells};

    /// "4+" -> 4, "-1" -> -1, "Miss" -> None.
    fn score(cell: &str) -> Option<i32> {
        cell.trim_end_matches('+').parse().ok()
    }

    #[test]
    fn hit_table_matches_the_seed_text() {
        if !crate::systems::seed_text::available(SEED) {
            return;
        }
        let cells = table_cells(SEED, "| BS |", "Given that roll of 1");
        assert_eq!(cells.len(), 22, "{cells:?}");
        for bs in 1..=10 {
            assert_eq!(cells[bs].parse::<i32>().unwrap(), bs as i32);
            assert_eq!(
                Some(hit_needed(bs as i32, 0)),
                score(&cells[11 + bs]),
                "BS {bs}"
            );
        }
    }

    #[test]
    fn seven_plus_chart_matches_the_seed_text() {
        if !crate::systems::seed_text::available(SEED) {
            return;
        }
        // | Score Required To Hit | 7 | 8 | 9 | 10 | / | Additional D6 Score | 4+ | 5+ | 6+ | Miss |
        let cells = table_cells(
            SEED,
            "| Score Required To Hit |",
            "Shooting Into Hand-to-Hand Combat",
        );
        assert_eq!(cells.len(), 10, "{cells:?}");
        // the cells as printed, and P(hit) by hand: a 6 (1/6), then the
        // additional D6 at 4+ (3/6), 5+ (2/6), 6+ (1/6) or a miss
        let printed = [
            ("7", "4+", 3.0 / 36.0),
            ("8", "5+", 2.0 / 36.0),
            ("9", "6+", 1.0 / 36.0),
            ("10", "Miss", 0.0),
        ];
        for (i, (needed, further, p)) in printed.into_iter().enumerate() {
            assert_eq!(cells[1 + i], needed);
            assert_eq!(cells[6 + i], further);
            assert_eq!(
                hit_probability(needed.parse().unwrap()),
                p,
                "needs {needed}"
            );
        }
    }

    #[test]
    fn armour_modifiers_match_the_seed_text() {
        if !crate::systems::seed_text::available(SEED) {
            return;
        }
        let cells = table_cells(SEED, "| Model’s Strength |", "Step 9");
        let pairs: Vec<(&str, i32)> = cells[2..]
            .chunks(2)
            .map(|c| (c[0].as_str(), c[1].parse().unwrap()))
            .collect();
        assert_eq!(pairs.len(), 7);
        for (strengths, modifier) in pairs {
            let range: Vec<u8> = match strengths {
                "0-3" => vec![0, 1, 2, 3],
                "9+" => vec![9, 10],
                s => vec![s.parse().unwrap()],
            };
            for s in range {
                assert_eq!(save_modifier_for_strength(s), modifier, "S{s}");
            }
        }
    }

    #[test]
    fn injury_and_d3_tables_match_the_seed_text() {
        if !crate::systems::seed_text::available(SEED) {
            return;
        }
        let cells = table_cells(SEED, "| D6 |\nEFFECT |", "Flesh Wound\n");
        // 1-2 FLESH WOUND, 3-5 DOWN, 6 OUT OF ACTION
        let rows: Vec<(&str, &str)> = cells[2..]
            .chunks(3)
            .map(|c| (c[0].as_str(), c[1].as_str()))
            .collect();
        for (faces, effect) in rows {
            let want = match effect {
                "FLESH WOUND:" => Injury::FleshWound,
                "DOWN:" => Injury::Down,
                "OUT OF ACTION:" => Injury::OutOfAction,
                other => panic!("unexpected injury '{other}'"),
            };
            let (lo, hi) = faces.split_once('-').unwrap_or((faces, faces));
            for d in lo.trim().parse::<u32>().unwrap()..=hi.trim().parse().unwrap() {
                assert_eq!(injury(d), want, "D6 {d}");
            }
        }
        // "| D6 | D3 |" rows as printed: 1-2 -> 1, 3-4 -> 2, 5-6 -> 3
        let cells = table_cells(SEED, "| D6 |\nD3 |", "Sustained Fire dice");
        let rows: Vec<String> = cells[2..]
            .chunks(2)
            .map(|c| format!("{} -> {}", c[0].replace(' ', ""), c[1]))
            .collect();
        assert_eq!(rows, ["1-2 -> 1", "3-4 -> 2", "5-6 -> 3"]);
        // d3 on scripted faces reads those rows
        for (d6, want) in [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)] {
            let mut faces = crate::dice::testing::Faces::of(&[d6]);
            assert_eq!(d3(&mut faces), want, "D6 {d6}");
            assert!(faces.used_up());
        }
    }

    /// The Wound Chart as printed: `None` for "N" and "-".
    fn wound_chart_from_seed() -> Vec<Vec<Option<u8>>> {
        let text = seed(SEED);
        let start = text
            .find("Wound Chart\nSTR |")
            .expect("seed has a Wound Chart");
        let body = &text[start..];
        let end = body
            .find("\nDamage\n")
            .expect("the chart ends before 'Damage'");
        let tokens: Vec<&str> = body[..end]
            .lines()
            .flat_map(|l| l.split('|'))
            .map(str::trim)
            .filter(|t| !t.is_empty() && !t.starts_with("---"))
            .collect();
        // "Wound Chart", "STR", "TARGET’S TOUGHNESS", header 1..10, then rows of 11
        let header = tokens.iter().position(|t| *t == "1").expect("header row");
        let rows: Vec<Vec<Option<u8>>> = tokens[header + 10..]
            .chunks(11)
            .map(|row| row[1..].iter().map(|c| c.parse().ok()).collect())
            .collect();
        assert_eq!(rows.len(), 10, "ten Strength rows");
        rows
    }

    #[test]
    fn wound_chart_matches_the_seed_text() {
        if !crate::systems::seed_text::available(SEED) {
            return;
        }
        let chart = wound_chart_from_seed();
        for s in 1..=10u8 {
            for t in 1..=10u8 {
                assert_eq!(
                    wound_needed(s, t),
                    chart[usize::from(s) - 1][usize::from(t) - 1],
                    "S{s} T{t}"
                );
            }
        }
    }
}

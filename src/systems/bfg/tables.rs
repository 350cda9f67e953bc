//! Battlefleet Gothic tables and tests, quoted from the advanced rules
//! (`seeds/004_d4c8740a73a9c193.txt`).

use crate::dice::Roller;

/// Ship sizes for the ramming Leadership test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ShipType {
    /// Escorts.
    Escort,
    /// Cruisers (and grand/battle cruisers).
    Cruiser,
    /// Battleships.
    Battleship,
}

impl ShipType {
    /// Parses `escort`, `cruiser`, `battleship`.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "escort" => ShipType::Escort,
            "cruiser" | "grand_cruiser" | "battlecruiser" => ShipType::Cruiser,
            "battleship" => ShipType::Battleship,
            _ => return None,
        })
    }
}

/// Dice for the ramming Leadership test (ALL AHEAD FULL – RAMMING SPEED!):
/// "the Leadership test is taken on 3D6 if the target vessel is of a smaller
/// type than the ramming one, but if the target vessel is a larger type than
/// the ramming one then the Leadership test is rolled on just 1D6" (2D6
/// otherwise: "the Agrippa would take a Leadership test on 2D6 to ram another
/// cruiser, on 3D6 to ram an escort or 1D6 to ram a battleship").
pub fn ram_test_dice(rammer: ShipType, target: ShipType) -> u32 {
    match target.cmp(&rammer) {
        std::cmp::Ordering::Less => 3,
        std::cmp::Ordering::Equal => 2,
        std::cmp::Ordering::Greater => 1,
    }
}

/// A Leadership test: the total of `dice` D6 equal to or under Leadership passes.
pub fn leadership_test(dice: &mut impl Roller, count: u32, leadership: i32) -> bool {
    dice.sum(count, 6) as i32 <= leadership
}

/// The Eldar's check against a solar flare or a gas cloud: "can make a
/// leadership check ... their escorts may re-roll this result for free":
/// 2D6 at most Leadership passes (`p`, as [`leadership_test`]), an
/// escort's two tries `1 - (1 - p)^2`. The law of (passed, probability).
pub fn eldar_check_law(leadership: i32, escort: bool) -> Vec<(bool, f64)> {
    let ways = (1..=6)
        .flat_map(|a| (1..=6).map(move |b| a + b))
        .filter(|&t| t <= leadership)
        .count();
    let p = ways as f64 / 36.0;
    let pass = if escort {
        1.0 - (1.0 - p) * (1.0 - p)
    } else {
        p
    };
    vec![(true, pass), (false, 1.0 - pass)]
}

/// Boarding Action Results: the scores on which the loser and the winner
/// suffer a critical hit, by the difference in scores: "1 Stalemate 5+/5+,
/// 2 Heavy Fighting 4+/5+, 3 Driven Back 3+/6+, 4 Stormed 2+/6+, 5+
/// Overwhelmed Auto/None". The worked example settles the order: after
/// Heavy Fighting "the Hyperion [the loser] will suffer a critical hit on a
/// D6 roll of 4, 5 or 6. The Plagueclaw [the winner] will also suffer a
/// critical hit on a D6 roll of 5 or 6". Returns (loser, winner); `Some(1)`
/// is automatic, `None` is no chance.
pub fn boarding_crit_scores(difference: u32) -> (Option<u32>, Option<u32>) {
    match difference {
        0 => (None, None),
        1 => (Some(5), Some(5)),
        2 => (Some(4), Some(5)),
        3 => (Some(3), Some(6)),
        4 => (Some(2), Some(6)),
        _ => (Some(1), None),
    }
}

/// Boarding Modifiers for boarding values: "Own boarding value higher +1,
/// twice the enemy's +2, three times +3, four or more times +4. Only apply
/// highest modifier."
pub fn boarding_value_modifier(own: u32, enemy: u32) -> i32 {
    if own <= enemy {
        0
    } else if enemy == 0 || own >= 4 * enemy {
        4
    } else if own >= 3 * enemy {
        3
    } else if own >= 2 * enemy {
        2
    } else {
        1
    }
}

/// Critical Hits table results (2D6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Critical {
    /// 2-3, +0: "Lances Damaged".
    LancesDamaged,
    /// 4, +0: "Main Armament Damaged".
    MainArmamentDamaged,
    /// 5, +0: "Ordnance Bays Hit".
    OrdnanceBaysHit,
    /// 6, +1: "Reactors Damaged".
    ReactorsDamaged,
    /// 7, 0: "Fire!".
    Fire,
    /// 8-9, +1: "Orbit Lost".
    OrbitLost,
    /// 10, 0: "Shields Collapse".
    ShieldsCollapse,
    /// 11, +D3: "Hull Breach".
    HullBreach,
    /// 12, +D6: "Bulkhead Collapse".
    BulkheadCollapse,
}

/// All results, lowest first.
pub const CRITICALS: [Critical; 9] = [
    Critical::LancesDamaged,
    Critical::MainArmamentDamaged,
    Critical::OrdnanceBaysHit,
    Critical::ReactorsDamaged,
    Critical::Fire,
    Critical::OrbitLost,
    Critical::ShieldsCollapse,
    Critical::HullBreach,
    Critical::BulkheadCollapse,
];

/// CRITICAL HITS TABLE: "2-3 +0 Lances Damaged, 4 +0 Main Armament Damaged,
/// 5 +0 Ordnance Bays Hit, 6 +1 Reactors Damaged, 7 0 Fire!, 8-9 +1 Orbit
/// Lost, 10 0 Shields Collapse, 11 +D3 Hull Breach, 12 +D6 Bulkhead
/// Collapse". Scores above 12 read as 12, below 2 as 2.
pub fn critical_for(score: u32) -> Critical {
    match score {
        ..=3 => Critical::LancesDamaged,
        4 => Critical::MainArmamentDamaged,
        5 => Critical::OrdnanceBaysHit,
        6 => Critical::ReactorsDamaged,
        7 => Critical::Fire,
        8 | 9 => Critical::OrbitLost,
        10 => Critical::ShieldsCollapse,
        11 => Critical::HullBreach,
        _ => Critical::BulkheadCollapse,
    }
}

impl Critical {
    /// Index in [`CRITICALS`].
    pub fn index(self) -> usize {
        CRITICALS.iter().position(|&c| c == self).unwrap_or(0)
    }

    /// Short name for metrics.
    pub fn name(self) -> &'static str {
        match self {
            Critical::LancesDamaged => "lances_damaged",
            Critical::MainArmamentDamaged => "main_armament_damaged",
            Critical::OrdnanceBaysHit => "ordnance_bays_hit",
            Critical::ReactorsDamaged => "reactors_damaged",
            Critical::Fire => "fire",
            Critical::OrbitLost => "orbit_lost",
            Critical::ShieldsCollapse => "shields_collapse",
            Critical::HullBreach => "hull_breach",
            Critical::BulkheadCollapse => "bulkhead_collapse",
        }
    }

    /// The result's extra damage, rolling D3 or D6 where the table says so.
    pub fn extra_damage(self, dice: &mut impl Roller) -> u32 {
        match self {
            Critical::ReactorsDamaged | Critical::OrbitLost => 1,
            Critical::HullBreach => dice.roll(3),
            Critical::BulkheadCollapse => dice.d6(),
            _ => 0,
        }
    }

    /// "If a critical hit is rolled which cannot be applied ... apply the
    /// next highest critical instead": the first result at or above `self`
    /// that `applies`; the last result always applies.
    pub fn applicable(self, applies: impl Fn(Critical) -> bool) -> Critical {
        CRITICALS[self.index()..]
            .iter()
            .copied()
            .find(|&c| applies(c) || c == Critical::BulkheadCollapse)
            .unwrap_or(Critical::BulkheadCollapse)
    }
}

/// Hit-and-run attacks ("Resolving a Hit-and-run Attack"): "roll a D6. On a
/// score of a 1 the attack has failed, on a 2 or more look up the score on
/// the Critical Hits table"; "Fleets that benefit from a +1 bonus ... roll a
/// 2 to 7". Returns the critical, or `None` when the attack fails.
pub fn hit_and_run(dice: &mut impl Roller, bonus: u32) -> Option<Critical> {
    let score = dice.d6() + bonus;
    (score >= 2).then(|| critical_for(score))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::enumerate;

    use crate::systems::seed_text::{BFG, tab_rows};

    /// "5+" -> Some(5), "Auto" -> Some(1), "None" -> None.
    fn score(cell: &str) -> Option<u32> {
        match cell {
            "Auto" => Some(1),
            "None" => None,
            n => Some(n.trim_end_matches('+').parse().unwrap()),
        }
    }

    #[test]
    fn boarding_results_match_the_seed_text() {
        if !crate::systems::seed_text::available(crate::systems::seed_text::BFG) {
            return;
        }
        // "1 Stalemate 5+/5+" ... "5+ Overwhelmed Auto/None"
        let rows = tab_rows(BFG, "1\tStalemate", "For example the Hyperion");
        assert_eq!(rows.len(), 5, "{rows:?}");
        for row in rows {
            let (win, lose) = row[2].split_once('/').unwrap();
            let want = (score(win), score(lose));
            let first: u32 = row[0].trim_end_matches('+').parse().unwrap();
            let diffs = if row[0].ends_with('+') {
                first..=first + 5
            } else {
                first..=first
            };
            for d in diffs {
                assert_eq!(boarding_crit_scores(d), want, "difference {d} ({})", row[1]);
            }
        }
    }

    #[test]
    fn boarding_value_modifiers_match_the_seed_text() {
        if !crate::systems::seed_text::available(crate::systems::seed_text::BFG) {
            return;
        }
        let rows = tab_rows(BFG, "Own boarding value higher", "*Only apply");
        let want: Vec<i32> = rows
            .iter()
            .map(|r| r[1].trim_matches(['+', '*']).parse().unwrap())
            .collect();
        assert_eq!(want, [1, 2, 3, 4]);
        // higher, twice, three times, four or more times the enemy's 3
        for (own, m) in [4, 6, 9, 12].into_iter().zip(want) {
            assert_eq!(boarding_value_modifier(own, 3), m, "{own} against 3");
        }
    }

    #[test]
    fn critical_hits_table_matches_the_seed_text() {
        if !crate::systems::seed_text::available(crate::systems::seed_text::BFG) {
            return;
        }
        let rows = tab_rows(BFG, "2-3\t", "Notes:");
        assert_eq!(rows.len(), 9, "{rows:?}");
        for row in rows {
            let name: String = row[2]
                .split(['.', '!'])
                .next()
                .unwrap()
                .to_lowercase()
                .replace(' ', "_");
            let (lo, hi) = row[0].split_once('-').unwrap_or((&row[0], &row[0]));
            let extra: Vec<u32> = match row[1].as_str() {
                "+0" | "0" => vec![0],
                "+1" => vec![1],
                "+D3" => vec![1, 2, 3],
                "+D6" => (1..=6).collect(),
                other => panic!("unexpected extra damage {other}"),
            };
            for score in lo.parse::<u32>().unwrap()..=hi.parse().unwrap() {
                let c = critical_for(score);
                assert_eq!(c.name(), name, "2D6 = {score}");
                let got: Vec<u32> = enumerate(100, |r| c.extra_damage(r))
                    .unwrap()
                    .into_iter()
                    .map(|(v, _)| v)
                    .collect();
                assert_eq!(got, extra, "{name}");
            }
        }
    }

    #[test]
    fn ram_test_dice_match_the_agrippa_example() {
        // "the Agrippa would take a Leadership test on 2D6 to ram another
        // cruiser, on 3D6 to ram an escort or 1D6 to ram a battleship"
        assert_eq!(ram_test_dice(ShipType::Cruiser, ShipType::Cruiser), 2);
        assert_eq!(ram_test_dice(ShipType::Cruiser, ShipType::Escort), 3);
        assert_eq!(ram_test_dice(ShipType::Cruiser, ShipType::Battleship), 1);
    }

    #[test]
    fn boarding_tables_match_the_seed() {
        assert_eq!(boarding_crit_scores(1), (Some(5), Some(5)));
        assert_eq!(boarding_crit_scores(2), (Some(4), Some(5)));
        assert_eq!(boarding_crit_scores(3), (Some(3), Some(6)));
        assert_eq!(boarding_crit_scores(4), (Some(2), Some(6)));
        assert_eq!(boarding_crit_scores(7), (Some(1), None));
        // Plagueclaw (6) against Hyperion (3): twice the enemy's -> +2
        assert_eq!(boarding_value_modifier(6, 3), 2);
        assert_eq!(boarding_value_modifier(3, 6), 0);
        assert_eq!(boarding_value_modifier(4, 3), 1);
        assert_eq!(boarding_value_modifier(9, 3), 3);
        assert_eq!(boarding_value_modifier(12, 3), 4);
    }

    #[test]
    fn critical_table_and_next_highest_rule() {
        let seed = [
            (2, 0),
            (3, 0),
            (4, 1),
            (5, 2),
            (6, 3),
            (7, 4),
            (8, 5),
            (9, 5),
            (10, 6),
            (11, 7),
            (12, 8),
        ];
        for (score, index) in seed {
            assert_eq!(critical_for(score), CRITICALS[index], "2D6 = {score}");
        }
        // "a station with no lances gets a 'Lances damaged' critical hit,
        // apply the next highest critical instead ... main armament damage"
        let no_lances = |c: Critical| c != Critical::LancesDamaged;
        assert_eq!(
            Critical::LancesDamaged.applicable(no_lances),
            Critical::MainArmamentDamaged
        );
        assert_eq!(
            Critical::BulkheadCollapse.applicable(|_| false),
            Critical::BulkheadCollapse
        );
    }

    #[test]
    fn hit_and_run_by_fractions() {
        let plain = enumerate(100, |r| hit_and_run(r, 0)).unwrap();
        let fail: f64 = plain
            .iter()
            .filter(|(c, _)| c.is_none())
            .map(|(_, p)| p)
            .sum();
        assert!((fail - 1.0 / 6.0).abs() < 1e-15);
        let bonus = enumerate(100, |r| hit_and_run(r, 1)).unwrap();
        // a +1 fleet rolls 2-7: never fails, and a 7 is Fire!
        assert!(bonus.iter().all(|(c, _)| c.is_some()));
        let fire: f64 = bonus
            .iter()
            .filter(|(c, _)| *c == Some(Critical::Fire))
            .map(|(_, p)| p)
            .sum();
        assert!((fire - 1.0 / 6.0).abs() < 1e-15);
    }

    #[test]
    fn leadership_tests_by_fractions() {
        let p = |n, ld| {
            enumerate(1000, |r| leadership_test(r, n, ld))
                .unwrap()
                .iter()
                .filter(|(b, _)| *b)
                .map(|(_, p)| p)
                .sum::<f64>()
        };
        assert!((p(2, 8) - 26.0 / 36.0).abs() < 1e-15);
        assert!((p(1, 8) - 1.0).abs() < 1e-15);
        assert!((p(3, 8) - 56.0 / 216.0).abs() < 1e-15);
    }
}

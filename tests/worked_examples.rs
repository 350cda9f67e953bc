//! The seeds' worked examples played on the dice they list (issue 28, item
//! 3): the rule functions are fed the example's rolls in order and must
//! reach the example's outcome, not merely hold the number it looks up.

use krunch::dice::Roller;
use krunch::engine::Mechanic;
use krunch::systems::TrialValues;

/// Dice that come up as listed, in order; running out or a face above the
/// die's sides fails the test.
struct Faces(std::collections::VecDeque<u32>);

impl Faces {
    fn of(faces: &[u32]) -> Self {
        Faces(faces.iter().copied().collect())
    }
}

impl Roller for Faces {
    fn roll(&mut self, sides: u32) -> u32 {
        let f = self.0.pop_front().expect("the example ran out of dice");
        assert!((1..=sides).contains(&f), "face {f} on a D{sides}");
        f
    }
}

/// Plays `rule` on `faces` and returns its metrics by name.
fn play<M: Mechanic>(rule: &M, faces: &[u32]) -> Vec<(String, u64)> {
    let mut dice = Faces::of(faces);
    let mut s = rule.start();
    for i in 0..rule.steps() {
        rule.step(i, &mut dice, &mut s);
    }
    assert!(dice.0.is_empty(), "dice left over: {:?}", dice.0);
    let defs = rule.metrics().defs();
    let mut values = vec![0u64; defs.len()];
    rule.record(&s, &mut TrialValues(&mut values));
    defs.iter().map(|d| d.name.clone()).zip(values).collect()
}

fn get(values: &[(String, u64)], name: &str) -> u64 {
    values.iter().find(|(n, _)| n == name).unwrap().1
}

/// Kry-Gothic, The Keep dice: "if the player is asked to roll a 4K3 roll,
/// he rolls 6, 5, 5, 2. He chooses to keep the 6 and the two 5's, giving
/// him a total of 16" (the example keeps the 6 as 6: no explosion).
#[test]
fn krygothic_4k3_rolls_6_5_5_2_for_16() {
    let mut dice = Faces::of(&[6, 5, 5, 2]);
    let total = krunch::systems::krygothic::dice::keep_roll(&mut dice, 4, 3, false);
    assert_eq!(total, 16);
    assert!(dice.0.is_empty());
}

/// BFG, Ramming example: "The Agrippa had a starting damage capacity of 8
/// so it rolls 8D6 to damage the Unclean (which has Armour 5), rolling 1,
/// 2, 3, 3, 4, 5, 5, 6 and scoring 3 points of damage. By way of return the
/// Unclean (with a starting damage capacity of 8) rolls 4D6 to damage the
/// Agrippa (which has armour 6 on the front ...) rolling 3, 5, 6 and
/// scoring 1 point of damage." The example lists three of the four return
/// dice; the fourth here is a 2. The Leadership test first: 3 + 4 = 7 at
/// Ld 8 passes.
#[test]
fn bfg_ram_example_scores_3_and_takes_1() {
    let ram = krunch::systems::bfg::mechanics::Ram {
        test_dice: 2,
        leadership: 8,
        rammer_starting: 8,
        rammer_remaining: 8,
        rammer_front_armour: 6,
        target_armour: 5,
        target_starting: 8,
        target_remaining: 8,
        return_dice: 4,
    }
    .into_rule();
    let v = play(&ram, &[3, 4, 1, 2, 3, 3, 4, 5, 5, 6, 3, 5, 6, 2]);
    assert_eq!(get(&v, "p_ram_succeeds"), 1);
    assert_eq!(get(&v, "mean_damage_dealt"), 3);
    assert_eq!(get(&v, "mean_damage_taken"), 1);
    assert_eq!(get(&v, "dealt=3"), 1);
    // A failed test (6 + 5 = 11 against Ld 8): "the would-be rammer misses
    // the target"; no more dice are rolled.
    let v = play(&ram, &[6, 5]);
    assert_eq!(get(&v, "p_ram_succeeds"), 0);
    assert_eq!(get(&v, "mean_damage_dealt"), 0);
}

//! Small mechanics on their own: several hits on one figure (the Effect of
//! Hit Chart), hit allocation between a Hero and his men, Necron repair,
//! and the Quick Draw initiative roll-off.

use super::chart::{AHEAD_OF_TURN, Armour, FAST_DRAW, quick_draw_armour, quick_draw_weapon};
use super::fire::{Figure, Toughness, roll_effect};
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::step_model::Mechanic;
use crate::systems::{MetricDecl, MetricList};

/// Every metric of the effect-of-hit scenario.
pub const EFFECT_METRICS: [MetricDecl; 4] = [
    MetricDecl::probability("p_dead", "P(dead)", "P(the figure is dead)"),
    MetricDecl::probability("p_wounded", "P(wounded)", "P(alive and wounded)"),
    MetricDecl::probability("p_duck_back", "P(ducks back)", "P(alive and ducked back)"),
    MetricDecl::probability(
        "p_unaffected",
        "P(no effect)",
        "P(alive, not wounded, not ducked back)",
    ),
];

/// `hits` hits on one figure.
pub struct EffectRule {
    /// Hits taken.
    pub hits: u32,
    /// Already wounded before the hits.
    pub wounded: bool,
    /// The kind of figure.
    pub toughness: Toughness,
    list: MetricList,
    m: [Metric; 4],
}

impl EffectRule {
    /// The rule with its metric handles.
    pub fn new(hits: u32, wounded: bool, toughness: Toughness) -> Self {
        let mut list = MetricList::new();
        let m = EFFECT_METRICS.each_ref().map(|d| list.add(d));
        EffectRule {
            hits,
            wounded,
            toughness,
            list,
            m,
        }
    }
}

impl Mechanic for EffectRule {
    type State = Figure;

    fn start(&self) -> Figure {
        Figure {
            wounds: u8::from(self.wounded),
            ..Default::default()
        }
    }

    fn steps(&self) -> usize {
        self.hits as usize
    }

    fn step<R: Roller>(&self, _i: usize, dice: &mut R, f: &mut Figure) {
        if !f.dead {
            let e = roll_effect(dice, self.toughness);
            f.take(e, self.toughness);
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, f: &Figure, sink: &mut impl MetricSink) {
        let [dead, wounded, duck, none] = self.m;
        let w = f.wounded(self.toughness);
        sink.record(dead, u64::from(f.dead));
        sink.record(wounded, u64::from(w));
        sink.record(duck, u64::from(f.ducked && !f.dead));
        sink.record(none, u64::from(!f.dead && !w && !f.ducked));
    }
}

/// "If there is an "Officer" or other "Hero" character present alongside
/// common troopers roll 1D6 for each attack, on a roll of 6 the attack goes
/// against the Hero character otherwise one or more of the common troopers."
pub fn at_hero(d6: u32) -> bool {
    d6 == 6
}

/// Every metric of the hit allocation scenario.
pub const ALLOCATION_METRICS: [MetricDecl; 3] = [
    MetricDecl::mean(
        "mean_at_hero",
        "mean attacks at the Hero",
        "expected attacks directed at the Hero",
    ),
    MetricDecl::probability(
        "p_hero_attacked",
        "P(Hero attacked)",
        "P(at least one attack directed at the Hero)",
    ),
    MetricDecl::probability(
        "at_hero={k}",
        "P({k} at the Hero)",
        "P(exactly k attacks directed at the Hero)",
    ),
];

/// Allocation of `attacks` attacks (one D6 each).
pub struct AllocationRule {
    attacks: u32,
    list: MetricList,
    m: [Metric; 2],
    each: Vec<Metric>,
}

impl AllocationRule {
    /// The rule with its metric handles.
    pub fn new(attacks: u32) -> Self {
        let mut list = MetricList::new();
        let m = [0, 1].map(|i| list.add(&ALLOCATION_METRICS[i]));
        let each = list.family(&ALLOCATION_METRICS[2], 0..=attacks);
        AllocationRule {
            attacks,
            list,
            m,
            each,
        }
    }
}

impl Mechanic for AllocationRule {
    type State = u32;

    fn start(&self) -> u32 {
        0
    }

    fn steps(&self) -> usize {
        self.attacks as usize
    }

    fn step<R: Roller>(&self, _i: usize, dice: &mut R, n: &mut u32) {
        *n += u32::from(at_hero(dice.d6()));
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, n: &u32, sink: &mut impl MetricSink) {
        sink.record(self.m[0], u64::from(*n));
        sink.record(self.m[1], u64::from(*n > 0));
        sink.record(self.each[*n as usize], 1);
    }
}

/// "On a roll of "5,6" they stand back up ... within 12" of a Tomb Spider
/// or a Necron Lord then they can get back up on a roll of 4,5,6."
pub fn repair_target(near_lord: bool) -> u32 {
    if near_lord { 4 } else { 5 }
}

/// Every metric of the Necron repair scenario.
pub const REPAIR_METRICS: [MetricDecl; 3] = [
    MetricDecl::mean(
        "mean_repaired",
        "mean Necrons repaired",
        "expected Necrons standing back up",
    ),
    MetricDecl::probability(
        "p_all_repaired",
        "P(all repaired)",
        "P(every destroyed Necron stands back up)",
    ),
    MetricDecl::probability(
        "repaired={k}",
        "P({k} repaired)",
        "P(exactly k stand back up)",
    ),
];

/// Repair rolls at the start of a turn.
pub struct RepairRule {
    /// Destroyed last turn.
    destroyed: u32,
    /// Of those, destroyed by a D20 roll of 1: "no chance of repairing itself".
    on_a_one: u32,
    near_lord: bool,
    list: MetricList,
    m: [Metric; 2],
    each: Vec<Metric>,
}

impl RepairRule {
    /// The rule with its metric handles.
    pub fn new(destroyed: u32, on_a_one: u32, near_lord: bool) -> Self {
        let mut list = MetricList::new();
        let m = [0, 1].map(|i| list.add(&REPAIR_METRICS[i]));
        let each = list.family(&REPAIR_METRICS[2], 0..=destroyed);
        RepairRule {
            destroyed,
            on_a_one,
            near_lord,
            list,
            m,
            each,
        }
    }
}

impl Mechanic for RepairRule {
    type State = u32;

    fn start(&self) -> u32 {
        0
    }

    fn steps(&self) -> usize {
        (self.destroyed - self.on_a_one) as usize
    }

    fn step<R: Roller>(&self, _i: usize, dice: &mut R, n: &mut u32) {
        *n += u32::from(dice.d6() >= repair_target(self.near_lord));
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, n: &u32, sink: &mut impl MetricSink) {
        sink.record(self.m[0], u64::from(*n));
        sink.record(self.m[1], u64::from(*n == self.destroyed));
        sink.record(self.each[*n as usize], 1);
    }
}

/// One character in a quick draw.
#[derive(Clone, Copy, Debug)]
pub struct Drawer {
    /// Armour worn (Power covers "Power armour/ chimera/ sentinel", Tank "Heavy Tank").
    pub armour: Armour,
    /// "hand_gun", "rifle" or "heavy".
    pub weapon: &'static str,
    /// The Fast Draw skill.
    pub fast_draw: bool,
    /// "Returning fire ahead of turn".
    pub ahead_of_turn: bool,
}

impl Drawer {
    /// The sum of the table's modifiers.
    pub fn modifier(&self) -> i32 {
        quick_draw_armour(self.armour)
            + quick_draw_weapon(self.weapon)
            + if self.fast_draw { FAST_DRAW } else { 0 }
            + if self.ahead_of_turn { AHEAD_OF_TURN } else { 0 }
    }
}

/// How a tie on the Quick Draw roll reads (the seed does not say).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tie {
    /// Both fire at the same moment.
    Simultaneous,
    /// Roll again until someone is ahead.
    RollAgain,
}

/// Who fires first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum First {
    /// A fires first.
    A,
    /// B fires first.
    B,
    /// Both at once.
    Both,
}

/// Every metric of the quick draw scenario.
pub const QUICK_DRAW_METRICS: [MetricDecl; 3] = [
    MetricDecl::probability(
        "p_a_first",
        "P(A fires first)",
        "P(A's D10 + modifiers beats B's)",
    ),
    MetricDecl::probability(
        "p_b_first",
        "P(B fires first)",
        "P(B's D10 + modifiers beats A's)",
    ),
    MetricDecl::probability(
        "p_simultaneous",
        "P(both fire at once)",
        "P(a tie, read as simultaneous fire)",
    ),
];

/// The roll-off between two characters.
pub struct QuickDrawRule {
    a: i32,
    b: i32,
    tie: Tie,
    list: MetricList,
    m: [Metric; 3],
}

impl QuickDrawRule {
    /// The roll-off with its metric handles.
    pub fn new(a: Drawer, b: Drawer, tie: Tie) -> Self {
        let mut list = MetricList::new();
        let m = QUICK_DRAW_METRICS.each_ref().map(|d| list.add(d));
        QuickDrawRule {
            a: a.modifier(),
            b: b.modifier(),
            tie,
            list,
            m,
        }
    }

    fn once(&self, dice: &mut impl Roller) -> First {
        let a = dice.roll(10) as i32 + self.a;
        let b = dice.roll(10) as i32 + self.b;
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => First::A,
            std::cmp::Ordering::Less => First::B,
            std::cmp::Ordering::Equal => First::Both,
        }
    }

    /// The law of one roll-off (ties rolled again when read so).
    fn law(&self) -> Vec<(First, f64)> {
        let mut p = [0.0; 3];
        for a in 1..=10 {
            for b in 1..=10 {
                let who = match (a + self.a).cmp(&(b + self.b)) {
                    std::cmp::Ordering::Greater => 0,
                    std::cmp::Ordering::Less => 1,
                    std::cmp::Ordering::Equal => 2,
                };
                p[who] += 0.01;
            }
        }
        if self.tie == Tie::RollAgain {
            let go = 1.0 - p[2];
            vec![(First::A, p[0] / go), (First::B, p[1] / go)]
        } else {
            vec![(First::A, p[0]), (First::B, p[1]), (First::Both, p[2])]
        }
    }
}

impl Mechanic for QuickDrawRule {
    type State = Option<First>;

    fn start(&self) -> Option<First> {
        None
    }

    fn steps(&self) -> usize {
        1
    }

    fn step<R: Roller>(&self, _i: usize, dice: &mut R, s: &mut Option<First>) {
        // The sampler rolls the D10s (again on a tie when read so); the
        // exact side branches on the same roll-off's law.
        let first = dice.known(
            || self.law(),
            |d| loop {
                let f = self.once(d);
                if f != First::Both || self.tie == Tie::Simultaneous {
                    break f;
                }
            },
        );
        *s = Some(first);
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &Option<First>, sink: &mut impl MetricSink) {
        let [a, b, both] = self.m;
        sink.record(a, u64::from(*s == Some(First::A)));
        sink.record(b, u64::from(*s == Some(First::B)));
        sink.record(both, u64::from(*s == Some(First::Both)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seeds_twelve_dice_send_three_at_the_sergeant() {
        // "Roll 12D6 and score 1,2,2,3,3,3,4,5,5,6,6,6 Three of the shots
        // have been directed at the saergent and 9 at his men."
        let rolls = [1, 2, 2, 3, 3, 3, 4, 5, 5, 6, 6, 6];
        let at_him = rolls.iter().filter(|&&r| at_hero(r)).count();
        assert_eq!((at_him, rolls.len() - at_him), (3, 9));
    }

    #[test]
    fn quick_draw_modifiers_add_up() {
        let gunslinger = Drawer {
            armour: Armour::Std,
            weapon: "hand_gun",
            fast_draw: true,
            ahead_of_turn: true,
        };
        assert_eq!(gunslinger.modifier(), 4 + 2 + 4 - 3);
    }
}

//! The Quick Draw initiative roll-off: D10 plus armour, weapon and skill
//! modifiers for each of two characters, the higher firing first; and the
//! `quick_draw` scenario that asks who.

use super::chart::{
    AHEAD_OF_TURN, Armour, FAST_DRAW, WEAPON_CLASSES, quick_draw_armour, quick_draw_weapon,
};
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::step_model::{Mechanic, StepModel};
use crate::systems::Variant;
use crate::systems::{MetricDecl, MetricList, Model, ParamError, ParamGroup, Params};
use crate::systems::{Refusal, Scenario};

/// The `quick_draw` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const QUICK_DRAW_SCENARIO: Scenario = Scenario {
    name: "quick_draw",
    about: "who fires first: D10 + armour and weapon modifiers for two characters",
    seed_section: "Quick Draw INITIATIVE TABLE (1D10); SHOOT",
    params: QuickDrawParams::decls,
    metrics: || METRICS.to_vec(),
    build,
    variants: &["quick_draw_tie"],
    test_points: &[
        &[
            ("a_armour", "std"),
            ("a_weapon", "hand_gun"),
            ("b_armour", "power"),
            ("b_weapon", "rifle"),
        ],
        &[
            ("a_armour", "storm"),
            ("a_fast_draw", "true"),
            ("b_armour", "std"),
            ("b_ahead_of_turn", "true"),
        ],
    ],
    refusals: &[Refusal {
        what: "a weapon class misspelt",
        point: 0,
        set: &[("b_weapon", "rifel")],
        unset: &[],
        field: "b_weapon",
        words: &["did you mean 'rifle'"],
    }],
    naive: crate::systems::skirmish20::naive::QUICK_DRAW,
};

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

crate::variant_enum! {
    /// How a tie on the Quick Draw roll reads (the seed does not say).
    pub enum Tie = "quick_draw_tie" {
        /// Both fire at the same moment.
        Simultaneous = "simultaneous",
        /// Roll again until someone is ahead.
        RollAgain = "roll_again",
    }
    about: "a tie on the Quick Draw roll (the seed does not say): both fire at once (default), or roll again",
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
pub const METRICS: [MetricDecl; 3] = [
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
        let m = METRICS.each_ref().map(|d| list.add(d));
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

const QUICK_DRAW: &str = "Quick Draw INITIATIVE TABLE (1D10)";

crate::param_struct! {
    /// Parameters of the quick draw scenario: characters A and B.
    pub struct QuickDrawParams {
        a_armour: Armour = choice(Armour::WORDS)
            .required()
            .about("A's armour: std +4, storm +3, power (or Chimera, Sentinel) +2, tank +1")
            .seed(QUICK_DRAW),
        a_weapon: String = choice(WEAPON_CLASSES)
            .default("rifle")
            .about("A's weapon: hand gun +2, rifle 0, heavy -2")
            .seed(QUICK_DRAW),
        a_fast_draw: bool = flag()
            .about("A has Fast Draw: +4")
            .seed(QUICK_DRAW),
        a_ahead_of_turn: bool = flag()
            .about("A returns fire ahead of turn: -3")
            .seed("SHOOT"),
        b_armour: Armour = choice(Armour::WORDS)
            .required()
            .about("B's armour: std +4, storm +3, power (or Chimera, Sentinel) +2, tank +1")
            .seed(QUICK_DRAW),
        b_weapon: String = choice(WEAPON_CLASSES)
            .default("rifle")
            .about("B's weapon: hand gun +2, rifle 0, heavy -2")
            .seed(QUICK_DRAW),
        b_fast_draw: bool = flag()
            .about("B has Fast Draw: +4")
            .seed(QUICK_DRAW),
        b_ahead_of_turn: bool = flag()
            .about("B returns fire ahead of turn: -3")
            .seed("SHOOT"),
    }
}

/// A character drawing: `weapon` one of [`WEAPON_CLASSES`].
fn drawer(armour: Armour, weapon: &str, fast_draw: bool, ahead_of_turn: bool) -> Drawer {
    Drawer {
        armour,
        weapon: WEAPON_CLASSES
            .iter()
            .find(|w| **w == weapon)
            .copied()
            .unwrap_or("rifle"),
        fast_draw,
        ahead_of_turn,
    }
}

/// Builds the model.
pub fn build(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = QuickDrawParams::read(p)?;
    let tie = Tie::read(v)?;
    Ok(Box::new(StepModel::new(QuickDrawRule::new(
        drawer(p.a_armour, &p.a_weapon, p.a_fast_draw, p.a_ahead_of_turn),
        drawer(p.b_armour, &p.b_weapon, p.b_fast_draw, p.b_ahead_of_turn),
        tie,
    ))))
}

#[cfg(test)]
mod tests {
    use super::*;

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

//! The Fort gate (Forts, Opening the Gate): "a default Armour Value of 9";
//! "Penetrating the Gates Armour follows the same rules as Penetrating
//! Vehicle Armour"; warriors unopposed at the gate inflict "a number of
//! automatic Hits equal to their Weapon Skill"; "Ramming the Gate counts as
//! a Head-On Crash ... the Gate only takes D3 Damage if it’s a large
//! Vehicle and 1 Damage if it is a Small Vehicle. Each point of Damage
//! automatically penetrates"; each penetrating hit rolls on the gate
//! table, whose 3 gives "a +1 bonus (cumulative)". Turn after turn until a
//! gap or until destroyed: an absorbing chain, exact by [`RepeatModel`].

use super::damage::{Size, p_sum_at_least};
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::repeat_model::{RepeatModel, Repeated};
use crate::systems::gce::tables::d3;
use crate::systems::{MetricDecl, MetricList};

/// What the gate table's result does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GateResult {
    /// 1-2: "Some of the decorative trim peels off."
    Trim,
    /// 3: "Something shifted! Future rolls on this table receive a +1
    /// bonus (cumulative)."
    Shifted,
    /// 4: "There’s a gap! Warriors on foot may move through the gate now."
    Gap,
    /// 5: "Carnage! The gate is destroyed but the debris causes the
    /// gateway area to count as Difficult Ground".
    Carnage,
    /// 6: "Off the hinges! The gate is completely destroyed".
    OffTheHinges,
}

/// Reads the gate table for a modified D6 score.
pub fn gate_table(score: u32) -> GateResult {
    match score {
        ..=2 => GateResult::Trim,
        3 => GateResult::Shifted,
        4 => GateResult::Gap,
        5 => GateResult::Carnage,
        _ => GateResult::OffTheHinges,
    }
}

/// What attacks the gate each turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attack {
    /// Hits of a Strength (shooting), `hits` a turn.
    Hits {
        /// Their Strength.
        strength: u8,
        /// Hits landing each turn.
        hits: u8,
    },
    /// A vehicle ramming it each turn: D3 points (large) or 1 (small),
    /// each penetrating automatically.
    Ram(Size),
}

/// When the siege is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Until {
    /// A gap or worse.
    Gap,
    /// Destroyed (Carnage or Off the hinges).
    Destroyed,
}

/// A gate under attack.
#[derive(Clone, Debug)]
pub struct Gate {
    /// Its Armour (9 by default).
    pub armour: u8,
    /// What hits it each turn.
    pub attack: Attack,
    /// When it is over.
    pub until: Until,
}

/// The gate's state.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GateState {
    bonus: u8,
    worst: Option<GateResult>,
    pending: u8,
}

/// A bonus of 5 turns every roll into 6 or more: larger ones change nothing.
const MOST_BONUS: u8 = 5;

/// Every metric of the gate scenario (besides the turns).
pub const GATE_METRICS: [MetricDecl; 3] = [
    MetricDecl::probability(
        "p_ends_gap",
        "P(a gap, gate standing)",
        "P(it ends with a gap and the gate not destroyed)",
    ),
    MetricDecl::probability(
        "p_ends_carnage",
        "P(destroyed: carnage)",
        "P(the gate is destroyed by a Carnage result: the gateway is Difficult Ground)",
    ),
    MetricDecl::probability(
        "p_ends_off_hinges",
        "P(destroyed: off the hinges)",
        "P(the gate comes off its hinges: free passage)",
    ),
];

/// The gate with its handles.
pub struct GateRule {
    gate: Gate,
    list: MetricList,
    m: [Metric; 3],
}

impl Gate {
    /// The gate's model; turn counts up to `shown` reported one by one.
    pub fn into_model(self, shown: usize) -> RepeatModel<GateRule> {
        let mut list = MetricList::new();
        let m = GATE_METRICS.map(|d| list.add(&d));
        RepeatModel::new(
            GateRule {
                gate: self,
                list,
                m,
            },
            shown,
        )
    }

    /// Whether a hit of this attack can ever penetrate.
    pub fn can_penetrate(&self) -> bool {
        match self.attack {
            Attack::Hits { strength, hits } => {
                hits > 0 && p_sum_at_least(1, i32::from(self.armour) - i32::from(strength)) > 0.0
            }
            Attack::Ram(_) => true,
        }
    }

    fn most_points(&self) -> u8 {
        match self.attack {
            Attack::Hits { hits, .. } => hits,
            Attack::Ram(Size::Large) => 3,
            Attack::Ram(Size::Small) => 1,
        }
    }
}

impl Repeated for GateRule {
    type State = GateState;

    const ROUND: &'static str = "turns";

    fn start(&self) -> GateState {
        GateState {
            bonus: 0,
            worst: None,
            pending: 0,
        }
    }

    fn over(&self, s: &GateState) -> bool {
        match self.gate.until {
            Until::Gap => s.worst.is_some_and(|w| w >= GateResult::Gap),
            Until::Destroyed => s.worst.is_some_and(|w| w >= GateResult::Carnage),
        }
    }

    fn sub_steps(&self) -> usize {
        1 + usize::from(self.gate.most_points())
    }

    fn sub_step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut GateState) {
        let g = &self.gate;
        if i == 0 {
            s.pending = match g.attack {
                Attack::Hits { hits, .. } => hits,
                Attack::Ram(Size::Large) => d3(dice) as u8,
                Attack::Ram(Size::Small) => 1,
            };
            return;
        }
        if s.pending == 0 || self.over(s) {
            return;
        }
        s.pending -= 1;
        let through = match g.attack {
            Attack::Hits { strength, .. } => dice.d6() + u32::from(strength) >= u32::from(g.armour),
            Attack::Ram(_) => true,
        };
        if !through {
            return;
        }
        match gate_table(dice.d6() + u32::from(s.bonus)) {
            GateResult::Shifted => s.bonus = (s.bonus + 1).min(MOST_BONUS),
            GateResult::Trim => {}
            r => s.worst = s.worst.max(Some(r)),
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &GateState, sink: &mut impl MetricSink) {
        let [gap, carnage, hinges] = self.m;
        sink.record(gap, u64::from(s.worst == Some(GateResult::Gap)));
        sink.record(carnage, u64::from(s.worst == Some(GateResult::Carnage)));
        sink.record(hinges, u64::from(s.worst == Some(GateResult::OffTheHinges)));
    }

    fn end_round(&self, s: &mut GateState) {
        s.pending = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::Model;

    /// A small vehicle ramming deals one automatic point a turn: the first
    /// roll is 4+ (a gap or worse) with 1/2; a 3 adds +1 for the rest.
    #[test]
    fn a_bike_ramming_makes_a_gap_as_the_table_says() {
        let model = Gate {
            armour: 9,
            attack: Attack::Ram(Size::Small),
            until: Until::Gap,
        }
        .into_model(3);
        let exact = model.exact().unwrap();
        let at = |n: &str| exact[model.metrics().iter().position(|m| m.name == n).unwrap()];
        // turn 1: 4, 5 or 6 ends it
        assert!((at("turns=1") - 0.5).abs() < 1e-15);
        // turn 2 after a 3 (+1: 3+ ends it) or after a 1-2 (4+ ends it)
        let t2 = 1.0 / 6.0 * 4.0 / 6.0 + 2.0 / 6.0 * 0.5;
        assert!((at("turns=2") - t2).abs() < 1e-15);
        // How it ends, by the bonus b the rolls carry ("3 Something
        // shifted! Future rolls on this table receive a +1 bonus
        // (cumulative)"; "4 There's a gap!", "5 Carnage!", "6 Off the
        // hinges!"). A turn that ends nothing or shifts nothing (a score
        // of 1-2) is rolled again, so only the faces that leave b count:
        // b = 3: faces 1..6 score 4..9: gap 1/6, carnage 1/6, off 4/6;
        // b = 2: face 1 scores 3 (to b = 3), 2 gap, 3 carnage, 4-6 off:
        //        carnage 1/6 + 1/6 * 1/6 = 7/36;
        // b = 1: face 1 trims; of the five faces left, 2 shifts, 3 gap,
        //        4 carnage, 5-6 off: carnage 1/5 + 1/5 * 7/36 = 43/180;
        // b = 0: faces 1-2 trim; of the four left, 3 shifts, 4 gap, 5
        //        carnage, 6 off: carnage 1/4 + 1/4 * 43/180 = 223/720.
        // A gap and carnage take one face each at every b, so a gap ends
        // it with 223/720 too, and off the hinges with 1 - 446/720.
        assert!((at("p_ends_carnage") - 223.0 / 720.0).abs() < 1e-15);
        assert!((at("p_ends_gap") - 223.0 / 720.0).abs() < 1e-15);
        assert!((at("p_ends_off_hinges") - 274.0 / 720.0).abs() < 1e-15);
    }

    #[test]
    fn the_table_reads_as_printed() {
        let rows: Vec<GateResult> = (1..=7).map(gate_table).collect();
        use GateResult::*;
        assert_eq!(
            rows,
            [
                Trim,
                Trim,
                Shifted,
                Gap,
                Carnage,
                OffTheHinges,
                OffTheHinges
            ]
        );
    }
}

//! The `solar_flare` scenario: the turns of a battle near a star whose
//! celestial phenomena include solar flares, and what the flares do to one
//! ship and to the ordnance on the table. Its parameters, the rule
//! ([`SolarFlares`], a [`Mechanic`] of two steps a turn: the flare dice,
//! then the flares' effects) and its builder, in one module named after
//! it.
//!
//! SOLAR FLARES, Effects: "Roll a D6 at the start of each turn. If more
//! than one flare was generated as part of the celestial phenomena roll a
//! D6 per flare generated. On any roll of a 6 a flare occurs, but a flare
//! will only manifest itself once per game. Once a flare occurs, this roll
//! no longer needs to be rolled. Each ship on the tabletop has one Blast
//! marker placed sunward of them. Any ship without shields will suffer one
//! hit and will take critical damage on a roll of 4 or more on a D6. Roll a
//! D6 for each Ordnance marker – on a 4 or more it is removed from play.
//! Eldar and their kin can make a leadership check to ignore all effects of
//! solar flares, and their escorts may re-roll this result for free. If
//! passed, it will take no damage but instead turn directly away from the
//! solar flare and move 2D6cm."

use super::mechanics::Pool;
use super::tables::leadership_test;
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::step_model::{Mechanic, StepModel};
use crate::systems::{
    MetricDecl, MetricList, Model, Opt, ParamError, ParamGroup, Params, Refusal, Scenario, Variant,
};

/// The `solar_flare` scenario: what it asks, its parameters and metrics,
/// its builder, test points, bad inputs and naive loop.
pub const SOLAR_FLARE_SCENARIO: Scenario = Scenario {
    name: "solar_flare",
    about: "solar flares over a number of turns: when one occurs, the hits and criticals on an unshielded ship, ordnance removed, the Eldar check",
    seed_section: "SOLAR FLARES",
    params: FlareParams::decls,
    metrics: || METRICS.to_vec(),
    build: build_solar_flare,
    variants: &["flare_once"],
    test_points: &[
        &[("turns", "4")],
        &[
            ("turns", "3"),
            ("flares", "2"),
            ("ordnance", "3"),
            ("eldar_leadership", "8"),
            ("eldar_escort", "true"),
        ],
        &[("turns", "2"), ("flares", "3"), ("shields", "2")],
    ],
    refusals: &[
        Refusal {
            what: "an escort re-roll without an Eldar check",
            point: 0,
            set: &[("eldar_escort", "true")],
            unset: &[],
            field: "eldar_escort",
            words: &["eldar_leadership", "re-roll"],
        },
        Refusal {
            what: "no turns",
            point: 0,
            set: &[("turns", "0")],
            unset: &[],
            field: "turns",
            words: &["from 1 to 30"],
        },
        Refusal {
            what: "more flares than the battlezone tables generate",
            point: 0,
            set: &[("flares", "9")],
            unset: &[],
            field: "flares",
            words: &["from 1 to 6"],
        },
    ],
    naive: super::naive::SOLAR_FLARE,
};

const FLARES: &str = "SOLAR FLARES";

crate::param_struct! {
    /// Parameters of the solar flare scenario.
    struct FlareParams {
        turns: i64 = int(1, 30)
            .required()
            .about("turns played: the flare dice are rolled at the start of each")
            .seed(FLARES),
        flares: i64 = int(1, 6)
            .default("1")
            .about("flares generated with the celestial phenomena (a D6 each per turn)")
            .seed(FLARES),
        shields: i64 = int(0, 10)
            .default("0")
            .about("the ship's shields: a ship without shields suffers one hit per flare")
            .seed(FLARES),
        ordnance: i64 = int(0, 20)
            .default("0")
            .about("Ordnance markers on the table: each removed on a 4+ per flare")
            .seed(FLARES),
        eldar_leadership: Opt<i64> = int(1, 12)
            .about("an Eldar ship's Leadership: a passed check ignores the flare")
            .seed(FLARES),
        eldar_escort: bool = flag()
            .about("the Eldar ship is an escort: it re-rolls a failed check for free")
            .seed(FLARES),
    }
}

crate::variant_enum! {
    /// How many times the flares generated can manifest (the variant
    /// `flare_once`).
    pub enum FlareOnce = "flare_once" {
        /// Each flare generated rolls its own D6 each turn until it has
        /// occurred: "roll a D6 per flare generated ... a flare will only
        /// manifest itself once per game. Once a flare occurs, this roll no
        /// longer needs to be rolled."
        EachFlare = "each_flare",
        /// The first 6 on any flare's die is the game's one flare; no dice
        /// are rolled after it.
        OnePerGame = "one_per_game",
    }
    about: "Several solar flares generated: each flare rolls its own D6 until it has occurred once ('each_flare', \"roll a D6 per flare generated ... a flare will only manifest itself once per game\"), or the first 6 is the game's only flare ('one_per_game', \"Once a flare occurs, this roll no longer needs to be rolled\")",
}

/// The solar flare scenario's metrics.
pub const METRICS: [MetricDecl; 8] = [
    MetricDecl::probability(
        "p_flare",
        "P(a flare by the last turn)",
        "P(at least one flare occurs in the turns played)",
    ),
    MetricDecl::mean(
        "mean_flares",
        "mean flares",
        "expected flares occurring in the turns played",
    ),
    MetricDecl::probability(
        "p_hit",
        "P(the ship is hit)",
        "P(the ship suffers at least one hit from flares)",
    ),
    MetricDecl::mean(
        "mean_hits",
        "mean hits",
        "expected hits on the ship (one per flare without shields, unless an Eldar check ignores it)",
    ),
    MetricDecl::probability(
        "p_critical",
        "P(a critical from a flare)",
        "P(at least one flare hit takes critical damage, 4+)",
    ),
    MetricDecl::mean(
        "mean_criticals",
        "mean criticals",
        "expected critical damage rolls of 4+ on the flare hits",
    ),
    MetricDecl::mean(
        "mean_ignored",
        "mean flares ignored",
        "expected flares an Eldar ship ignores by its Leadership check",
    ),
    MetricDecl::mean(
        "mean_ordnance_removed",
        "mean ordnance removed",
        "expected Ordnance markers removed from play (4+ per marker per flare)",
    ),
];

/// The flares of a battle and one ship.
#[derive(Clone, Debug)]
pub struct SolarFlares {
    turns: u32,
    flares: u32,
    shielded: bool,
    ordnance: u32,
    /// The Eldar check's chance to pass (with the escort's re-roll) and its
    /// dice: `(leadership, escort)`.
    eldar: Option<(i32, bool)>,
    once: FlareOnce,
    /// `sixes[k]`: the 6s among `k` flare dice.
    sixes: Vec<Pool>,
    /// `removed[n]`: the 4+s among `n` Ordnance markers' dice.
    removed: Vec<Pool>,
    list: MetricList,
    m: [Metric; 8],
}

/// Where the flares stand.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FlareState {
    /// Flares whose dice are still rolled.
    left: u8,
    /// Flares that occurred this turn, their effects still to resolve.
    pending: u8,
    flares: u8,
    hits: u8,
    criticals: u8,
    ignored: u8,
    ordnance_left: u8,
}

impl Mechanic for SolarFlares {
    type State = FlareState;

    fn start(&self) -> FlareState {
        FlareState {
            left: self.flares as u8,
            pending: 0,
            flares: 0,
            hits: 0,
            criticals: 0,
            ignored: 0,
            ordnance_left: self.ordnance as u8,
        }
    }

    /// Two steps a turn: "Roll a D6 at the start of each turn", then what
    /// the flares that occurred do.
    fn steps(&self) -> usize {
        2 * self.turns as usize
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut FlareState) {
        if i.is_multiple_of(2) {
            if s.left == 0 {
                return;
            }
            let sixes = self.sixes[usize::from(s.left)].roll(dice) as u8;
            match self.once {
                FlareOnce::EachFlare => {
                    s.pending = sixes;
                    s.left -= sixes;
                }
                FlareOnce::OnePerGame if sixes > 0 => {
                    s.pending = 1;
                    s.left = 0;
                }
                FlareOnce::OnePerGame => {}
            }
            return;
        }
        for _ in 0..s.pending {
            s.flares += 1;
            let ignored = self.eldar.is_some_and(|(ld, escort)| {
                dice.known(
                    || super::tables::eldar_check_law(ld, escort),
                    |r| leadership_test(r, 2, ld) || (escort && leadership_test(r, 2, ld)),
                )
            });
            if ignored {
                s.ignored += 1;
            } else if !self.shielded {
                s.hits += 1;
                if dice.d6() >= 4 {
                    s.criticals += 1;
                }
            }
            if s.ordnance_left > 0 {
                s.ordnance_left -= self.removed[usize::from(s.ordnance_left)].roll(dice) as u8;
            }
        }
        s.pending = 0;
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &FlareState, sink: &mut impl MetricSink) {
        let [flare, flares, hit, hits, crit, crits, ignored, removed] = self.m;
        sink.record(flare, u64::from(s.flares > 0));
        sink.record(flares, u64::from(s.flares));
        sink.record(hit, u64::from(s.hits > 0));
        sink.record(hits, u64::from(s.hits));
        sink.record(crit, u64::from(s.criticals > 0));
        sink.record(crits, u64::from(s.criticals));
        sink.record(ignored, u64::from(s.ignored));
        sink.record(removed, u64::from(self.ordnance as u8 - s.ordnance_left));
    }
}

fn build_solar_flare(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = FlareParams::read(p)?;
    if p.eldar_escort && p.eldar_leadership.value.is_none() {
        return Err(ParamError::new(
            crate::param_name!(FlareParams.eldar_escort),
            "an escort's free re-roll is of the Eldar Leadership check: set eldar_leadership too",
        ));
    }
    let flares = p.flares as u32;
    let ordnance = p.ordnance as u32;
    let mut list = MetricList::new();
    let m = METRICS.each_ref().map(|d| list.add(d));
    let rule = SolarFlares {
        turns: p.turns as u32,
        flares,
        shielded: p.shields > 0,
        ordnance,
        eldar: p
            .eldar_leadership
            .value
            .map(|ld| (ld as i32, p.eldar_escort)),
        once: FlareOnce::read(v)?,
        sixes: (0..=flares).map(|k| Pool::new(k, 6)).collect(),
        removed: (0..=ordnance).map(|n| Pool::new(n, 4)).collect(),
        list,
        m,
    };
    Ok(Box::new(StepModel::new(rule)))
}

#[cfg(test)]
mod tests {
    use crate::systems::{Params, seed_text, testing};

    fn exact(pairs: &[(&str, &str)], metric: &str) -> f64 {
        testing::exact(
            testing::model(&super::super::RULES, "solar_flare", pairs).as_ref(),
            metric,
        )
    }

    fn exact_under(pairs: &[(&str, &str)], variants: &[(&str, &str)], metric: &str) -> f64 {
        let m = super::super::RULES
            .build(
                "solar_flare",
                &Params::from_pairs(pairs),
                &Params::from_pairs(variants),
            )
            .unwrap();
        testing::exact(m.as_ref(), metric)
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-12, "{a} against {b}");
    }

    /// SOLAR FLARES: "Roll a D6 at the start of each turn ... On any roll of
    /// a 6 a flare occurs ... Any ship without shields will suffer one hit
    /// and will take critical damage on a roll of 4 or more on a D6." One
    /// flare over three turns: P(a flare by turn 3) = 1 - (5/6)^3 =
    /// 91/216; the flare occurs at most once, so the expected hits on an
    /// unshielded ship are 91/216 and its criticals half that, 91/432. With
    /// shields up, no hit at all.
    #[test]
    fn one_flare_by_hand() {
        if seed_text::available(seed_text::BFG) {
            let text = seed_text::seed(seed_text::BFG);
            assert!(text.contains("On any roll of a 6 a flare occurs, but a flare will only manifest itself once per game."));
            assert!(text.contains("Any ship without shields will suffer one hit and will take critical damage on a roll of 4 or more on a D6."));
        }
        let t3 = [("turns", "3")];
        close(exact(&t3, "p_flare"), 91.0 / 216.0);
        close(exact(&t3, "mean_hits"), 91.0 / 216.0);
        close(exact(&t3, "p_hit"), 91.0 / 216.0);
        close(exact(&t3, "mean_criticals"), 91.0 / 432.0);
        close(exact(&[("turns", "1")], "p_flare"), 1.0 / 6.0);
        let shielded = [("turns", "3"), ("shields", "1")];
        close(exact(&shielded, "mean_hits"), 0.0);
        close(exact(&shielded, "p_flare"), 91.0 / 216.0);
    }

    /// "roll a D6 per flare generated ... a flare will only manifest itself
    /// once per game": two flares over three turns, each its own die until
    /// it occurs (the default), give 2 x 91/216 = 91/108 expected hits; P(a
    /// flare) = 1 - (25/36)^3 = 31031/46656 under both readings, and under
    /// `one_per_game` the expected hits are that, 31031/46656.
    #[test]
    fn two_flares_by_hand() {
        let p = [("turns", "3"), ("flares", "2")];
        close(exact(&p, "mean_flares"), 91.0 / 108.0);
        close(exact(&p, "mean_hits"), 91.0 / 108.0);
        close(exact(&p, "p_flare"), 31031.0 / 46656.0);
        let once = [("flare_once", "one_per_game")];
        close(exact_under(&p, &once, "mean_hits"), 31031.0 / 46656.0);
        close(exact_under(&p, &once, "p_flare"), 31031.0 / 46656.0);
    }

    /// "Eldar and their kin can make a leadership check to ignore all
    /// effects of solar flares, and their escorts may re-roll this result
    /// for free. If passed, it will take no damage": at Leadership 8, 2D6
    /// of 8 or less is 26/36 = 13/18; an escort fails twice with
    /// (5/18)^2 = 25/324. One flare in one turn: a cruiser is hit 1/6 x
    /// 5/18 = 5/108, an escort 1/6 x 25/324 = 25/1944. Each of three
    /// Ordnance markers is removed on a 4+: 3 x 1/2 x 1/6 = 1/4 expected.
    #[test]
    fn eldar_check_and_ordnance_by_hand() {
        let cruiser = [("turns", "1"), ("eldar_leadership", "8"), ("ordnance", "3")];
        close(exact(&cruiser, "mean_hits"), 5.0 / 108.0);
        close(exact(&cruiser, "mean_ignored"), 13.0 / 108.0);
        close(exact(&cruiser, "mean_ordnance_removed"), 0.25);
        let escort = [
            ("turns", "1"),
            ("eldar_leadership", "8"),
            ("eldar_escort", "true"),
        ];
        close(exact(&escort, "mean_hits"), 25.0 / 1944.0);
    }
}

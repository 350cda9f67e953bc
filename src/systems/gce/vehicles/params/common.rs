//! What the vehicle scenarios share: the seed sections they quote, the
//! turns shown one by one, the crew's profile, a location by name.

use crate::systems::did_you_mean;
use crate::systems::gce::target::save_value;
use crate::systems::gce::warrior::WarriorStats;
use crate::systems::{FromParam, Opt, ParamDecl, ParamError, ParamGroup, Params};

pub(super) const TEMPLATES: &str =
    "Taking Damage, Template Weapons; Templates and the Crew Location";
pub(super) const FIRE: &str = "Taking Damage, Vehicles Catching Fire";
pub(super) const RAMMING: &str = "Vehicles, Ramming; Collisions; Crashes";
pub(super) const BOARDING: &str =
    "Boarding Actions (Movement); Boarding Actions (Hand-to-hand Combat); Pilin’ On";

/// Turn counts shown one by one by the repeating vehicle scenarios.
pub(super) const TURNS_SHOWN: usize = 6;

/// A crew's profile, `prefix` `crew_`, for hits on the warriors aboard.
/// `hit_by` adds what the scenario needs for the crew to be hit at all.
pub(super) fn crew_params(about: &str, hit_by: fn(ParamDecl) -> ParamDecl) -> Vec<ParamDecl> {
    const PROFILE: &str = "Characteristics; Injuries";
    // a crew's stat is used with a crew, and a crew needs the four stats
    // it is rolled with: each stat needs the crew and the other three
    const NEEDED: [(&str, &str); 4] = [
        ("crew_toughness", "3"),
        ("crew_wounds", "1"),
        ("crew_ws", "3"),
        ("crew_bs", "3"),
    ];
    let with_crew = |d: ParamDecl| {
        let name = d.name.clone();
        hit_by(
            NEEDED
                .iter()
                .filter(|(n, _)| *n != name)
                .fold(d.needs_any("crew", "1"), |d, (n, v)| d.needs_any(*n, v)),
        )
    };
    vec![
        ParamDecl::int("crew", 0, 10)
            .default("0")
            .about(about.to_string())
            .seed(TEMPLATES),
        with_crew(
            ParamDecl::int("crew_toughness", 1, 10)
                .about("each warrior aboard: Toughness (needed with crew)")
                .seed(PROFILE),
        ),
        with_crew(
            ParamDecl::int("crew_wounds", 1, 20)
                .about("each warrior aboard: Wounds (needed with crew)")
                .seed(PROFILE),
        ),
        with_crew(
            ParamDecl::int("crew_save", 0, 7)
                .about("each warrior aboard: armour save (2-6), 0 or absent for none")
                .seed(PROFILE),
        ),
        with_crew(
            ParamDecl::int("crew_ws", 1, 10)
                .about("each warrior aboard: WS, for Flesh Wounds (needed with crew)")
                .seed(PROFILE),
        ),
        with_crew(
            ParamDecl::int("crew_bs", 1, 10)
                .about("each warrior aboard: BS, for Flesh Wounds (needed with crew)")
                .seed(PROFILE),
        ),
    ]
}

/// Why the warriors aboard are in a scenario: what `crew` says, and what
/// else must hold for them to be hit at all.
pub trait CrewRole {
    /// What the `crew` count means here.
    const ABOUT: &'static str;
    /// Adds what the scenario needs for the crew to be hit.
    fn hit_by(d: ParamDecl) -> ParamDecl;
}

/// The warriors aboard, a group (`crew`, `crew_toughness` ...) whose
/// profile is needed only when there are any.
#[derive(Clone, Debug)]
pub struct CrewParams<R> {
    crew: i64,
    toughness: Opt<i64>,
    wounds: Opt<i64>,
    save: Opt<i64>,
    ws: Opt<i64>,
    bs: Opt<i64>,
    role: std::marker::PhantomData<R>,
}

impl<R: CrewRole> ParamGroup for CrewParams<R> {
    fn decls_with(prefix: &str) -> Vec<ParamDecl> {
        debug_assert!(prefix.is_empty(), "the crew's names carry no prefix");
        crew_params(R::ABOUT, R::hit_by)
    }

    fn read_with(p: &Params, prefix: &str) -> Result<Self, ParamError> {
        let name = |s: &str| format!("{prefix}{s}");
        Ok(CrewParams {
            crew: FromParam::from_param(p, &name("crew"))?,
            toughness: FromParam::from_param(p, &name("crew_toughness"))?,
            wounds: FromParam::from_param(p, &name("crew_wounds"))?,
            save: FromParam::from_param(p, &name("crew_save"))?,
            ws: FromParam::from_param(p, &name("crew_ws"))?,
            bs: FromParam::from_param(p, &name("crew_bs"))?,
            role: std::marker::PhantomData,
        })
    }
}

impl<R> CrewParams<R> {
    /// The crew's count and profile when there is one.
    pub(super) fn crew(&self) -> Result<Option<(u8, WarriorStats)>, ParamError> {
        let n = self.crew as u8;
        let profile = [
            &self.toughness,
            &self.wounds,
            &self.save,
            &self.ws,
            &self.bs,
        ];
        if n == 0 {
            if let Some(given) = profile.iter().find(|f| f.value.is_some()) {
                return Err(ParamError::new(
                    given.name(),
                    "set, but crew is 0: nobody is aboard",
                ));
            }
            return Ok(None);
        }
        let int = |f: &Opt<i64>| -> Result<u8, ParamError> { Ok(f.need()? as u8) };
        Ok(Some((
            n,
            WarriorStats {
                toughness: int(&self.toughness)?,
                wounds: int(&self.wounds)?,
                save: save_value(&self.save)?,
                ws: int(&self.ws)?,
                bs: int(&self.bs)?,
                pin_immune: false,
            },
        )))
    }
}

/// A location named in a spec, with "did you mean".
pub(super) fn location_index(
    vehicle: &super::super::damage::Vehicle,
    name: &str,
    field: &str,
) -> Result<usize, ParamError> {
    let key = name.trim().to_ascii_lowercase().replace([' ', '-'], "_");
    vehicle.location_named(&key).ok_or_else(|| {
        let names: Vec<&str> = vehicle.locations.iter().map(|l| l.name.as_str()).collect();
        ParamError::new(
            field,
            format!(
                "no location '{name}' in the Hit Location Table (locations: {}){}",
                names.join(", "),
                did_you_mean(&key, names.iter().copied())
            ),
        )
    })
}

//! Typed rule variants: each variant a rule reads is an enum declared
//! once with [`variant_enum!`], its words beside its cases, so the rule
//! matches on `Overwatch::Original` and never spells a key or a word; the
//! rule set's `variants` list is made of the enums' [`Variant::DEF`]s.
//!
//! Reading still goes through the variant [`Params`] (one read per call),
//! so a report's `variants_read` names the variants a run consulted, as
//! finely as before: a branch that reads a variant only sometimes names
//! it only then.

use super::{ParamError, Params, VariantDef};

/// A rule variant as an enum: its declaration and its cases, in the
/// order of the declaration's words (the first the default).
pub trait Variant: Copy + 'static {
    /// Name, words and what it changes, as `krunch list` shows it.
    const DEF: VariantDef;
    /// The cases, one per word of [`Self::DEF`], in order.
    const ALL: &'static [Self];

    /// The case `variants` chose, or the default where they name none.
    fn read(variants: &Params) -> Result<Self, ParamError> {
        let Some(word) = variants.word(Self::DEF.name)? else {
            return Ok(Self::ALL[0]);
        };
        Self::DEF
            .values
            .iter()
            .position(|w| *w == word)
            .map(|i| Self::ALL[i])
            .ok_or_else(|| {
                ParamError::new(
                    Self::DEF.name,
                    format!("'{word}' is not one of: {}", Self::DEF.values.join(", ")),
                )
            })
    }
}

/// Declares a rule variant as an enum and its [`Variant`] impl:
///
/// ```ignore
/// variant_enum! {
///     /// The Overwatch hit modifier.
///     pub enum Overwatch = "overwatch" {
///         /// v1.4: "+1 to hit rather than -1".
///         Current = "current",
///         /// The body text's -1.
///         Original = "original",
///     }
///     about: "Overwatch hit modifier: ...",
/// }
/// ```
///
/// The first case is the default.
#[macro_export]
macro_rules! variant_enum {
    (
        $(#[$doc:meta])*
        $vis:vis enum $name:ident = $key:literal {
            $( $(#[$case_doc:meta])* $case:ident = $word:literal ),+ $(,)?
        }
        about: $about:expr $(,)?
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis enum $name {
            $( $(#[$case_doc])* $case ),+
        }

        impl $crate::systems::Variant for $name {
            const DEF: $crate::systems::VariantDef = $crate::systems::VariantDef {
                name: $key,
                values: &[$($word),+],
                about: $about,
            };
            const ALL: &'static [Self] = &[$($name::$case),+];
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::{ParamDecl, ParamValue};

    variant_enum! {
        /// A variant for the test.
        enum Rounding = "rounding" {
            /// The default.
            Down = "down",
            Up = "up",
        }
        about: "how halves round",
    }

    fn variants(given: Option<&str>) -> Params {
        let decl = ParamDecl::choice("rounding", Rounding::DEF.values)
            .default("down")
            .about("how halves round");
        let mut p = Params::new();
        if let Some(w) = given {
            p.set("rounding", ParamValue::from_text(w));
        }
        p.bound(vec![decl])
    }

    #[test]
    fn a_variant_reads_its_case_its_default_and_notes_the_read() {
        assert_eq!(Rounding::DEF.values, ["down", "up"]);
        assert_eq!(Rounding::ALL, [Rounding::Down, Rounding::Up]);
        assert_eq!(Rounding::read(&variants(Some("up"))), Ok(Rounding::Up));
        let left_out = variants(None);
        assert_eq!(Rounding::read(&left_out), Ok(Rounding::Down));
        assert!(left_out.names_read().contains("rounding"));
        let e = Rounding::read(&variants(Some("sideways"))).unwrap_err();
        assert_eq!(e.field, "rounding");
        assert!(
            e.to_string().contains("'sideways' is not one of: down, up"),
            "{e}"
        );
    }
}

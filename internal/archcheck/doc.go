// Package archcheck measures the shape limits the architecture sets on
// core/: no type with more than MaxExportedMethods exported methods, and
// no mutex guarding more than MaxGuarded fields. Which fields a mutex
// guards is read from the layout, by the code's convention: the fields
// that follow it up to the next blank line or the next mutex (fields set
// when the value is made go before it).
//
// It reads the source with go/parser only, no type checking, so it runs in
// a fraction of a second over the whole tree: a method counts for the type
// named by its receiver, in the package of its directory; methods promoted
// from embedded fields are not counted (they belong to the embedded type,
// which is measured on its own). Test files are skipped.
package archcheck

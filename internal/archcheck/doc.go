// Package archcheck measures the shape limits the architecture sets on
// core/: no type with more than MaxExportedMethods exported methods, and
// (reported, for a reader to judge) no mutex beside more than MaxGuarded
// other fields of its struct.
//
// It reads the source with go/parser only, no type checking, so it runs in
// a fraction of a second over the whole tree: a method counts for the type
// named by its receiver, in the package of its directory; methods promoted
// from embedded fields are not counted (they belong to the embedded type,
// which is measured on its own). Test files are skipped.
package archcheck

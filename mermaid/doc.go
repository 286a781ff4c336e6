// Package mermaid draws Mermaid diagrams as terminal text: box-drawing
// characters by default, plain ASCII on request. It reads the two kinds
// of diagram a coding agent most often writes — flowcharts (`graph` or
// `flowchart`, any direction) and sequence diagrams (`sequenceDiagram`) —
// and state diagrams (`stateDiagram-v2`, drawn as flowcharts of rounded
// states), and refuses the others with an error naming what it reads.
//
// A flowchart is laid out in layers, Sugiyama-style: nodes get a layer
// by their longest path from a source (edges that close a cycle are
// turned round first), edges that skip layers are cut into one-layer
// pieces through invisible waypoints, each layer is ordered by the mean
// position of its neighbours (a few sweeps down and up), and the nodes
// of a layer are placed under the centre of their predecessors where
// there is room. Between two layers each edge runs out of its source, along
// its own channel across (channels are shared only by edges whose spans
// do not overlap) and into its target, so lines never run on top of one
// another. Lines are drawn as sets of directions per cell and turned into
// characters at the end, so crossings and branches get proper junctions.
// Every direction is the top-down layout turned or mirrored. Subgraphs
// are kept together in each layer and framed, with their titles, when
// the frame encloses no other node (flowchart_groups.go).
//
// A sequence diagram puts the participants in columns wide enough for
// the messages between neighbours, and draws each message, note and
// block (loop, alt, opt, par, critical, break, rect) on rows of its own
// down the lifelines.
//
// The parsers take untrusted text: they never panic (a fuzz target holds
// them to it) and the drawing is bounded (MaxNodes, MaxCells).
package mermaid

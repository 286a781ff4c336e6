package main

import (
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/permission"
)

// The permission gate of the modes with someone to ask (core/permission):
// the setting lists the calls put to the user; the question goes through
// the UI the mode gives the session (the terminal's picker, an RPC
// host's extension UI select dialog). -p and --mode json have no one to
// ask and no gate; `gopi acp` builds its own, asking the editor.

// tuiPermissions is the interactive mode's gate (tui.requirePermission).
func tuiPermissions(cfg *config.Config) permission.Options {
	return permission.Options{Require: cfg.Settings.RequirePermission(config.PermissionTUI), Setting: "tui.requirePermission"}
}

// rpcPermissions is --mode rpc's gate (rpc.requirePermission).
func rpcPermissions(cfg *config.Config) permission.Options {
	return permission.Options{Require: cfg.Settings.RequirePermission(config.PermissionRPC), Setting: "rpc.requirePermission"}
}

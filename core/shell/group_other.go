//go:build !linux

package shell

// liveMember cannot tell zombies apart here: a group with any member is
// alive.
func liveMember(int) bool { return true }

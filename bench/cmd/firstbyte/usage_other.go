//go:build !linux

package main

import "os"

// processUsage is not measured outside Linux.
func processUsage(int) resources { return resources{} }

// exitUsage is not measured outside Linux.
func exitUsage(*os.ProcessState) resources { return resources{} }

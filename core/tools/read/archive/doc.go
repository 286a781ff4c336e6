// Package archive reads what zip, tar and tar.gz archives hold without
// extracting them: it indexes members under caps that stop decompression
// bombs and serves their content. Member paths are cleaned by
// core/tools/innerpath (so none climbs out of the archive), which also
// splits a tool path such as "a.tgz:dir/f.txt" into archive and member.
// It knows nothing of tools or sessions; the read tool renders what it
// finds.
package archive

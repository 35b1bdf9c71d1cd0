// Package outfile writes the files a command produces (conc's --dot,
// --witness-out and --plot) so that they never destroy data: an output that
// names an input is refused, "-" is standard output, and a regular file is
// written beside its final name and renamed into place only when complete,
// so that a failed run leaves no half-written file and any earlier file of
// that name untouched.
//
// Replacing a file by renaming gives it a new identity: the earlier file's
// permission bits are kept, but another hard link to it keeps the earlier
// contents, and the new file belongs to the user who ran the command.
package outfile

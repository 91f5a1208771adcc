// Apple's privacy manifest for the library products, shipped as this target's resource bundle on
// Apple platforms: PrivacyInfo.xcprivacy declares the required-reason APIs Bearer calls (file
// timestamps: `stat`, `fstat` and `lstat` on the session files and lock files of the app's own
// containers, reason C617.1). A target needs a source file; this module declares nothing.

import Foundation

// errand-verify <cassette.har> [--base-url <url>] [options]: see VerifyArguments.usage.
exit(await VerifyCommand.run(Array(CommandLine.arguments.dropFirst())))

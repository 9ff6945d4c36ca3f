import Foundation
import HeadlessTooling

exit(await HeadlessCommand.run(Array(CommandLine.arguments.dropFirst())))

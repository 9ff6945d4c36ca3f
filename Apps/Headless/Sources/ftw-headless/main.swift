import Foundation
import Headless

exit(await HeadlessCommand.run(Array(CommandLine.arguments.dropFirst())))

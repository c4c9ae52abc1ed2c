package dev.fastpipe.cli;

import dev.fastpipe.shm.TransportOptions;
import dev.fastpipe.shm.TransportProvider;
import dev.fastpipe.shm.Transports;
import java.util.Collection;
import java.util.List;

/** {@code --transport NAME} and {@code --transport-opt key=value}: looked up and validated once, as one-line user errors. */
final class TransportOptionsArg {
  private TransportOptionsArg() {}

  /** The provider of {@code name}; a user error listing the available transports otherwise. */
  static TransportProvider provider(String name) {
    try {
      return Transports.provider(name);
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new UserError("--transport: " + e.getMessage());
    }
  }

  /** Parses the words and checks every scope ({@code NAME.key}) names one of {@code names}. */
  static TransportOptions parse(Collection<String> names, List<String> words) {
    TransportOptions all;
    try {
      all = TransportOptions.parse(words);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
    for (String scope : all.scopes()) {
      if (!names.contains(scope)) {
        throw new UserError("--transport-opt " + scope + ".*: " + scope + " is not a transport of this run (" + String.join(", ", names) + ")");
      }
    }
    return all;
  }

  /** The options of one transport, validated by its provider. */
  static TransportOptions validated(String name, TransportOptions all) {
    TransportOptions mine = all.forTransport(name);
    try {
      provider(name).validate(mine);
    } catch (IllegalArgumentException e) {
      throw new UserError("--transport-opt: " + e.getMessage());
    }
    return mine;
  }

  /** For a command with one transport ({@code call}): its validated options. */
  static TransportOptions forOne(String name, List<String> words) {
    provider(name);
    return validated(name, parse(List.of(name), words));
  }
}
